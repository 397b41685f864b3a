export * from "./connector";
export * from "./einvoice";
export * from "./errors";
export * from "./http";
export * from "./logging";
export * from "./model";
export * from "./rate-limit";
export * from "./util";
