import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { serializeError } from "./http/safe-error.ts";

const SENSITIVE_QUERY =
  /([?&](?:rowid|rowId|password|oldPassword|confirmPassword|newPassword|token|email)=)[^&]*/gi;

/** Masks secrets that travel in query strings (reset codes, passwords) before a URL is logged. */
export const maskUrl = (url: string) => url.replace(SENSITIVE_QUERY, "$1***");

type RawRequest = { method?: string; url?: string; id?: string; ip?: string };

/**
 * The one logger: pino with the request id on every line; passwords, tokens and credentials are
 * redacted wherever they appear. `pretty`: one readable line per entry for a person at a terminal
 * (pino-pretty in the same thread, no worker); `json` for machines.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  format: "pretty" | "json" = "json",
): Logger {
  destination ??=
    format === "pretty"
      ? pretty({ sync: true, colorize: true, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname,reqId" })
      : undefined;
  return pino(
    {
      level,
      redact: {
        paths: [
          "req.headers.authorization",
          "req.headers.cookie",
          "*.password",
          "*.newPassword",
          "*.oldPassword",
          "*.confirmPassword",
          "*.token",
          "*.clientSecret",
          "*.apiKey",
          "*.secret",
          "*.credentials",
        ],
        censor: "***",
      },
      serializers: {
        // Failed queries never log their SQL parameters (personal data), only the statement name.
        err: serializeError,
        req: (req: RawRequest) => ({
          method: req.method,
          url: maskUrl(req.url ?? ""),
          remoteAddress: req.ip,
        }),
      },
    },
    destination,
  );
}
