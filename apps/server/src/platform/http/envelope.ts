import { type Envelope, type FieldError, type MessageKey, message } from "@ep/contracts";

/** A successful answer in the one envelope every call uses. */
export function ok<T>(data: T, text: MessageKey = "api.ok", statusCode = 200): Envelope<T> {
  return { successful: true, statusCode, message: message(text), data };
}

/** The statuses an answer of ours may carry. */
export type HttpStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 414 | 415 | 429 | 431 | 500;

/**
 * The one way a handler reports a failure the user should read: HTTP status for the class,
 * `statusCode` for the business code (the HTTP status when the spec names none).
 */
export class AppError extends Error {
  constructor(
    readonly httpStatus: HttpStatus,
    readonly messageKey: MessageKey,
    readonly statusCode: number = httpStatus,
    readonly data: Record<string, unknown> | null = null,
  ) {
    super(messageKey);
  }

  static validation(errors: FieldError[]): AppError {
    return new AppError(400, "api.validationFailed", 400, { errors });
  }
  static notFound(): AppError {
    return new AppError(404, "api.notFound");
  }
  static unauthorized(): AppError {
    return new AppError(401, "api.unauthorized");
  }
  static forbidden(): AppError {
    return new AppError(403, "api.forbidden");
  }
  /** A 429 that says when to come back (sent as Retry-After). */
  static tooMany(messageKey: MessageKey, retryAfterSeconds: number): AppError {
    const error = new AppError(429, messageKey);
    error.retryAfterSeconds = retryAfterSeconds;
    return error;
  }

  /** Seconds the client should wait, for 429 answers. */
  retryAfterSeconds: number | null = null;
}

export function failure(error: AppError): Envelope<Record<string, unknown> | null> {
  return {
    successful: false,
    statusCode: error.statusCode,
    message: message(error.messageKey),
    data: error.data,
  };
}
