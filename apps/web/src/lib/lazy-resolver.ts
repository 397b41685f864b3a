import type { FieldValues, Resolver } from "react-hook-form";

/**
 * A form resolver whose code (a zod schema and zod itself) arrives in its own chunk: the first
 * paint of a form does not wait for it, and the chunk is requested as soon as the resolver exists
 * (call `preload` when the visitor starts on the form), before the first field is validated. Validation is the schema's,
 * unchanged: it only runs once the chunk is there.
 */
export function lazyResolver<TValues extends FieldValues, TContext = unknown, TOutput = TValues>(
  load: () => Promise<Resolver<TValues, TContext, TOutput>>,
): { resolver: Resolver<TValues, TContext, TOutput>; preload: () => void } {
  let loaded: Promise<Resolver<TValues, TContext, TOutput>> | undefined;
  const get = () => {
    loaded ??= load().catch((error: unknown) => {
      // A failed download is retried on the next validation instead of failing every one after it.
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  return {
    resolver: async (values, context, options) => (await get())(values, context, options),
    preload: () => void get().catch(() => undefined),
  };
}
