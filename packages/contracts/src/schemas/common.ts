import { z } from "zod";

/** The one response envelope every API call answers with. */
export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ successful: z.boolean(), statusCode: z.number().int(), message: z.string(), data });

export type Envelope<T> = { successful: boolean; statusCode: number; message: string; data: T };

export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const errorDataSchema = z
  .object({ errors: z.array(fieldErrorSchema).optional(), requestId: z.string().optional() })
  .nullable();

/** Plain ASCII e-mail check: the product refuses Turkish characters in addresses (code 120). */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
export const TURKISH_CHARACTERS = /[çğıöşüÇĞİÖŞÜâîûÂÎÛ]/;

export const pagedListSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    dataList: z.array(item),
    totalCount: z.number().int(),
    pageNumber: z.number().int(),
    pageSize: z.number().int(),
  });
export type PagedList<T> = { dataList: T[]; totalCount: number; pageNumber: number; pageSize: number };
