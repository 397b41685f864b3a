export * from "./auth";
export * from "./catalog";
export * from "./faults";
export * from "./paging";
export * from "./prng";
export * from "./recorder";
export * from "./server";
export * from "./turkish-data";
