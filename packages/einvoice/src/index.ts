export * from "./amounts.ts";
export * from "./document.ts";
export * from "./number.ts";
export * from "./profile.ts";
export * from "./ubl.ts";
