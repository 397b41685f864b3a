import { z } from "zod";
import type { MessageKey } from "../messages/tr.ts";
import { storableText, unsafeInLine } from "./text-rules.ts";

/** The one response envelope every API call answers with. */
export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ successful: z.boolean(), statusCode: z.number().int(), message: z.string(), data });

export type Envelope<T> = { successful: boolean; statusCode: number; message: string; data: T };

export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const errorDataSchema = z
  .object({ errors: z.array(fieldErrorSchema).optional(), requestId: z.string().optional() })
  .nullable();

export { EMAIL_PATTERN } from "./text-rules.ts";
export const TURKISH_CHARACTERS = /[çğıöşüÇĞİÖŞÜâîûÂÎÛ]/;

export const pagedListSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    dataList: z.array(item),
    totalCount: z.number().int(),
    pageNumber: z.number().int(),
    pageSize: z.number().int(),
  });
export type PagedList<T> = { dataList: T[]; totalCount: number; pageNumber: number; pageSize: number };

// ---------------------------------------------------------------------------------------------
// Shared input rules: every request schema builds its texts, ids, numbers and dates from these,
// so what PostgreSQL cannot store (NUL, int4 overflow, years beyond 9999) is refused at
// validation with a field message instead of failing in the database.

const err = (key: MessageKey) => ({ error: key });

/** The largest value of a PostgreSQL `integer` (serial ids, counts). */
export const INT4_MAX = 2_147_483_647;

/** Text a user sends: any string except one with NUL (PostgreSQL refuses it) or a broken surrogate. */
export const textInput = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(storableText, err("request.textControlCharacter"));

/** A name or other one-line text: `textInput` without control or bidi-override characters. */
export const lineInput = (params?: Parameters<typeof z.string>[0]) =>
  textInput(params).refine((s) => !unsafeInLine(s), err("request.textControlCharacter"));

/** A record id in a JSON body: a whole number 1 … INT4_MAX. */
export const idInput = () =>
  z
    .number(err("validation.fieldInvalid"))
    .int(err("request.idOutOfRange"))
    .min(1, err("request.idOutOfRange"))
    .max(INT4_MAX, err("request.idOutOfRange"));

/** A record id in a path or query string (text coerced to a number), same range. */
export const idParam = () =>
  z.coerce
    .number(err("validation.fieldInvalid"))
    .int(err("request.idOutOfRange"))
    .min(1, err("request.idOutOfRange"))
    .max(INT4_MAX, err("request.idOutOfRange"));

/** A page number from a path or query string (it becomes an OFFSET: bounded like an id). */
export const pageNumberParam = () =>
  z.coerce
    .number(err("validation.fieldInvalid"))
    .int(err("request.numberOutOfRange"))
    .min(1, err("request.numberOutOfRange"))
    .max(INT4_MAX, err("request.numberOutOfRange"));

/** A page size from a path or query string. */
export const pageSizeParam = () =>
  z.coerce
    .number(err("validation.fieldInvalid"))
    .int(err("request.numberOutOfRange"))
    .min(1, err("request.numberOutOfRange"))
    .max(100, err("request.numberOutOfRange"));

const MIN_YEAR = 1900;
// Far enough for any real date; low enough that adding days or years to one stays storable.
const MAX_YEAR = 2999;
const inYearRange = (s: string) => {
  const year = new Date(s).getUTCFullYear();
  return year >= MIN_YEAR && year <= MAX_YEAR;
};

/** ISO 8601: a day, or a date-time with an optional offset (`2026-05-01`, `2026-05-01T21:00:00.000Z`). */
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/i;

/**
 * A date that exists on the calendar (no 2026-02-30, month 13 or day 00) with a time within the day:
 * `Date.parse` alone rolls 2026-02-30 over to March, and the database refuses it (a 500 before).
 */
export function isRealDate(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const [year, month, day] = [m[1], m[2], m[3]].map(Number) as [number, number, number];
  if (month < 1 || month > 12 || day < 1) return false;
  const lastDay = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
  if (day > lastDay) return false;
  const [hour, minute, second, offsetHour, offsetMinute] = [m[4], m[5], m[6], m[8], m[9]].map((v) =>
    v === undefined ? 0 : Number(v),
  ) as [number, number, number, number, number];
  if (hour > 23 || minute > 59 || second > 59 || offsetHour > 14 || offsetMinute > 59) return false;
  return !Number.isNaN(Date.parse(s));
}
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** A date filter (`2026-05-01`, or a full ISO date-time): a real calendar date within 1900 … 2999. */
export const dateParam = () =>
  textInput(err("validation.dateInvalid"))
    .max(40, err("validation.dateInvalid"))
    .refine(isRealDate, { ...err("validation.dateInvalid"), abort: true })
    .refine(inYearRange, err("request.dateOutOfRange"));

/** A day (`2026-05-01`, no time): a real calendar date within 1900 … 2999. */
export const dayParam = () =>
  dateParam().refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s), { ...err("validation.dateInvalid"), abort: true });

/** An ISO date-time with offset in a body (support console dates), within 1900 … 2999. */
export const dateTimeInput = () =>
  z.iso
    .datetime({ offset: true, error: "validation.dateInvalid" })
    .refine(isRealDate, { ...err("validation.dateInvalid"), abort: true })
    .refine(inYearRange, err("request.dateOutOfRange"));
