import { createHash, randomBytes } from "node:crypto";

/** A random URL-safe code for links and sign-in codes; only its hash is stored. */
export const newCode = () => randomBytes(32).toString("base64url");
export const hashCode = (code: string) => createHash("sha256").update(code).digest("hex");
