export * from "./ikas/index";
export * from "./mikro/index";
export * from "./registry";
export * from "./sdk/index";
export * from "./shopify/index";
export * from "./testing/index";
export * from "./uyumsoft/index";
