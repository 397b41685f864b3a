export * from "./ideasoft/index";
export * from "./ikas/index";
export * from "./mikro/index";
export * from "./registry";
export * from "./sdk/index";
export * from "./testing/index";
