import type { Server } from "node:http";
import helmet from "@fastify/helmet";
import type { FastifyHttpOptions, FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import { AppError } from "./envelope.ts";
import { clientErrorHandler, sendError } from "./error-handler.ts";

/** Longer request targets are refused with 414 before routing (8 KiB, as common proxies allow). */
export const MAX_URL_LENGTH = 8 * 1024;
/** Longer header blocks are refused by Node with 431 (its default, said here so it is a decision). */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Server options that cut off slow or idle clients and answer Node's and the router's own refusals
 * in the envelope. `requestTimeout` bounds receiving a whole request (headers and body);
 * `headersTimeout` the headers alone; idle sockets close after `connectionTimeout`, which stays
 * above the 25 s long-poll so a waiting panel is not cut.
 */
export function serverOptions(config: Config): FastifyHttpOptions<Server> {
  const { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs } = config.http;
  return {
    requestTimeout: requestTimeoutMs,
    connectionTimeout: Math.max(requestTimeoutMs, 40_000),
    keepAliveTimeout: keepAliveTimeoutMs,
    http: {
      headersTimeout: Math.min(headersTimeoutMs, requestTimeoutMs),
      maxHeaderSize: MAX_HEADER_BYTES,
      // Node checks the two timeouts on this interval (default 30 s); check often enough to matter.
      connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
    },
    clientErrorHandler,
    frameworkErrors: (error, request, reply) => sendError(error, request, reply),
  };
}

const isHttps = (config: Config) => config.publicUrl.startsWith("https://");

/**
 * Security headers on every answer. Scripts only from our origin; the captcha widget (ALTCHA)
 * solves in a Worker it starts from a blob: URL, so `worker-src` allows blob: and nothing else
 * does. Styles allow inline: Mantine sets style attributes and injects its CSS variables.
 */
export async function installSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const https = isHttps(config);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        workerSrc: ["'self'", "blob:"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Same-origin isolation would break nothing today but buys nothing either; left at helmet's default.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook("onRequest", async (request, reply) => {
    reply.header("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()");
    if (request.url.length > MAX_URL_LENGTH) throw new AppError(414, "request.uriTooLong");
  });
}
