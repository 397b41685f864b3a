import { loginSchema } from "@ep/contracts";
import { zodResolver } from "@hookform/resolvers/zod";

/** The sign-in form's validation, loaded apart from the sign-in page (see lib/lazy-resolver.ts). */
export const loginResolver = zodResolver(loginSchema);
