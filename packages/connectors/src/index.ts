export * from "./dynamics-fo/index";
export * from "./entegra/index";
export * from "./ikas/index";
export * from "./mikro/index";
export * from "./registry";
export * from "./sdk/index";
export * from "./shopier/index";
export * from "./testing/index";
