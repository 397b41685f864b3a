export * from "./ikas/index";
export * from "./mikro/index";
export * from "./registry";
export * from "./sdk/index";
export * from "./sentos/index";
export * from "./sopyo/index";
export * from "./testing/index";
export * from "./tsoft/index";
