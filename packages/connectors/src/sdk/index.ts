export * from "./connector";
export * from "./errors";
export * from "./http";
export * from "./logging";
export * from "./metering";
export * from "./model";
export * from "./rate-limit";
export * from "./util";
