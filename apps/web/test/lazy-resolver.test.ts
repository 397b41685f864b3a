import { loginSchema } from "@ep/contracts";
import type { ResolverOptions } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { loginResolver } from "@/features/auth/login-resolver";
import { lazyResolver } from "@/lib/lazy-resolver";

type Values = { email: string; password: string };
const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<Values>;

describe("lazyResolver", () => {
  it("validates exactly as the schema's resolver, loading its chunk once", async () => {
    let loads = 0;
    const lazy = lazyResolver<Values>(async () => {
      loads++;
      return loginResolver;
    });
    lazy.preload();
    const bad = await lazy.resolver({ email: "x", password: "" }, undefined, options);
    const direct = await loginResolver({ email: "x", password: "" }, undefined, options);
    expect(Object.keys(bad.errors).sort()).toEqual(["email", "password"]);
    expect(bad.errors.email?.message).toBe(direct.errors.email?.message);
    const good = await lazy.resolver(
      { email: "ayse@example.com", password: "Guclu.Sifre1" },
      undefined,
      options,
    );
    expect(good.errors).toEqual({});
    expect(good.values).toEqual(loginSchema.parse({ email: "ayse@example.com", password: "Guclu.Sifre1" }));
    expect(loads).toBe(1);
  });

  it("retries a chunk that failed to download on the next validation", async () => {
    let attempts = 0;
    const lazy = lazyResolver<Values>(async () => {
      attempts++;
      if (attempts === 1) throw new Error("chunk failed");
      return loginResolver;
    });
    await expect(lazy.resolver({ email: "", password: "" }, undefined, options)).rejects.toThrow(
      "chunk failed",
    );
    const result = await lazy.resolver({ email: "", password: "" }, undefined, options);
    expect(result.errors.email).toBeDefined();
    expect(attempts).toBe(2);
  });
});
