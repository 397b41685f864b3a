import type { IncomingMessage, Server, ServerResponse } from "node:http";
import fastifyHelmet, { type FastifyHelmetOptions } from "@fastify/helmet";
import type { FastifyHttpOptions, FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
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
    // Refusals made before routing (Node's parser, Fastify's URL decoding) skip the hooks that set
    // the security headers: they are written here.
    clientErrorHandler: (error, socket) => clientErrorHandler(error, socket, securityHeaders(config)),
    frameworkErrors: (error, request, reply) => {
      reply.headers(securityHeaders(config));
      return sendError(error, request, reply);
    },
  };
}

const isHttps = (config: Config) => config.publicUrl.startsWith("https://");

const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()";

/**
 * Security headers on every answer. Scripts only from our origin; the captcha widget (ALTCHA)
 * solves in a Worker it starts from a blob: URL, so `worker-src` allows blob: and nothing else
 * does. Styles allow inline: Mantine sets style attributes and injects its CSS variables.
 */
function helmetOptions(config: Config): HelmetOptions {
  const https = isHttps(config);
  return {
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
  };
}

const headerCache = new WeakMap<Config, Record<string, string>>();

/**
 * The same headers as a plain map, for answers written outside the routing (helmet computes them,
 * so there is one definition): asked once per configuration.
 */
export function securityHeaders(config: Config): Record<string, string> {
  const cached = headerCache.get(config);
  if (cached) return cached;
  const headers: Record<string, string> = {};
  const sink = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(helmetOptions(config))({} as IncomingMessage, sink as unknown as ServerResponse, () => undefined);
  headers["permissions-policy"] = PERMISSIONS_POLICY;
  headerCache.set(config, headers);
  return headers;
}

export async function installSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  // The same options object; @fastify/helmet types it through helmet's CommonJS declarations.
  await app.register(fastifyHelmet, helmetOptions(config) as FastifyHelmetOptions);
  app.addHook("onRequest", async (request, reply) => {
    reply.header("permissions-policy", PERMISSIONS_POLICY);
    if (request.url.length > MAX_URL_LENGTH) throw new AppError(414, "request.uriTooLong");
  });
}
