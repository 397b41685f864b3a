export * from "./catalog";
export * from "./faults";
export * from "./prng";
export * from "./turkish-data";
