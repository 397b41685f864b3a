import type { FastifyInstance } from "fastify";

/**
 * A `fetch` that hands each request to a sandbox emulator's app directly, as the host would after
 * stripping the sandbox `prefix` it mounts the app under.
 */
export function fetchThroughApp(app: FastifyInstance, prefix: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input));
    const res = await app.inject({
      method: (init?.method ?? "GET") as "POST",
      url: url.pathname.replace(prefix, "") + url.search,
      headers: init?.headers as Record<string, string>,
      payload: init?.body as string | undefined,
    });
    return new Response(res.body, {
      status: res.statusCode,
      headers: { "content-type": String(res.headers["content-type"] ?? "") },
    });
  };
}
