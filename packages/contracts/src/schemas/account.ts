import { z } from "zod";
import { ECOMMERCE_TYPE_VALUES, ERP_TYPE_VALUES } from "../enums.ts";
import type { MessageKey } from "../messages/tr.ts";
import { EMAIL_PATTERN, lineInput, textInput } from "./common.ts";

const err = (key: MessageKey) => ({ error: key });
const required = (key: MessageKey) => ({ error: key, abort: true });

/** A required text: missing and empty both give the field's own "required" message. */
const requiredText = (key: MessageKey) => lineInput(err(key)).trim().min(1, required(key));

const registrationEmail = requiredText("validation.emailRequired")
  .min(3, required("validation.min3"))
  .max(50, required("validation.max50"))
  .regex(EMAIL_PATTERN, err("validation.emailInvalid"));

/** Digits only, in the mask 0 (599) 999-9999: a leading 0 and ten more digits. */
export const phoneSchema = requiredText("validation.phoneRequired").regex(
  /^0\d{10}$/,
  err("validation.phoneInvalid"),
);

const systemType = (values: readonly number[], key: MessageKey) =>
  z
    .number(err(key))
    .int(err(key))
    .refine((v) => values.includes(v), err(key));

export const registerFields = {
  company_Name: requiredText("validation.companyNameRequired")
    .min(3, required("validation.min3"))
    .max(100, err("validation.max100")),
  email: registrationEmail,
  password: z
    .string(err("validation.passwordRequired"))
    .min(1, required("validation.passwordRequired"))
    .min(8, required("validation.passwordMin8"))
    .max(50, err("validation.max50")),
  first_Name: requiredText("validation.firstNameRequired").max(50, err("validation.max50")),
  last_Name: requiredText("validation.lastNameRequired").max(50, err("validation.max50")),
  phone: phoneSchema,
  erpType: systemType(ERP_TYPE_VALUES, "validation.erpTypeRequired"),
  ecommerceType: systemType(ECOMMERCE_TYPE_VALUES, "validation.ecommerceTypeRequired"),
  /** ALTCHA payload (base64); required only when the server asks for it (registrations from one address). */
  captcha: textInput().max(4000).optional(),
};
export const registerSchema = z.object(registerFields);
export type RegisterRequest = z.infer<typeof registerSchema>;

// The sign-in request (loginSchema) is in login.ts, in zod/mini.

export const forgotPasswordSchema = z.object({
  email: requiredText("validation.forgotEmailRequired")
    .min(3, required("validation.loginMin3"))
    .max(50, required("validation.loginMax50"))
    .regex(EMAIL_PATTERN, err("validation.forgotEmailInvalid")),
});

const newPassword = z
  .string(err("validation.newPasswordRequired"))
  .min(1, required("validation.newPasswordRequired"))
  .min(8, required("validation.resetMin8"))
  .max(16, err("validation.resetMax16"));
const confirmPassword = z
  .string(err("validation.confirmPasswordRequired"))
  .min(1, required("validation.confirmPasswordRequired"));

export const resetPasswordSchema = z
  .object({
    rowid: textInput(err("validation.rowIdRequired")).min(1, required("validation.rowIdRequired")),
    newPassword,
    confirmPassword,
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    ...err("validation.passwordsDoNotMatch"),
    path: ["confirmPassword"],
  });
export type ResetPasswordRequest = z.infer<typeof resetPasswordSchema>;

/** The form part of the reset screen (rowid comes from the address). */
export const resetPasswordFormSchema = z
  .object({ newPassword, confirmPassword })
  .refine((v) => v.newPassword === v.confirmPassword, {
    ...err("validation.passwordsDoNotMatch"),
    path: ["confirmPassword"],
  });

export const updatePasswordSchema = z
  .object({
    oldPassword: z
      .string(err("validation.oldPasswordRequired"))
      .min(1, required("validation.oldPasswordRequired")),
    password: newPassword,
    confirmPassword,
  })
  .refine((v) => v.password === v.confirmPassword, {
    ...err("validation.passwordsDoNotMatch"),
    path: ["confirmPassword"],
  });
export type UpdatePasswordRequest = z.infer<typeof updatePasswordSchema>;

export const loginByRowIdSchema = z.object({
  rowId: textInput(err("validation.rowIdRequired")).min(1, required("validation.rowIdRequired")),
});

export const updateAccountSchema = z.object({
  first_Name: registerFields.first_Name,
  last_Name: registerFields.last_Name,
  phone: phoneSchema,
});
export type UpdateAccountRequest = z.infer<typeof updateAccountSchema>;

export const updateCompanySchema = z.object({
  company_Name: registerFields.company_Name,
  tax_Office: lineInput().trim().max(100, err("validation.max100")).optional().default(""),
  tax_Number: lineInput()
    .trim()
    .regex(/^(\d{10,11})?$/, err("validation.taxNumberInvalid"))
    .optional()
    .default(""),
  address: textInput().trim().max(500, err("validation.fieldInvalid")).optional().default(""),
  phone: lineInput()
    .trim()
    .regex(/^(0\d{10})?$/, err("validation.phoneInvalid"))
    .optional()
    .default(""),
  /** The shop's web address, printed on every e-Arşiv of an internet sale (GİB: internet sales). */
  website: lineInput()
    .trim()
    .max(200, err("validation.websiteInvalid"))
    .regex(/^(https?:\/\/[^\s/$.?#][^\s]*)?$/i, err("validation.websiteInvalid"))
    .optional()
    .default(""),
});
export type UpdateCompanyRequest = z.infer<typeof updateCompanySchema>;

/** What the API returns for a signed-in user: never a hash, never a secret. */
export const companyUserSchema = z.object({
  id: z.number().int(),
  first_Name: z.string(),
  last_Name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(["company", "support"]),
  language: z.string(),
});
export type CompanyUser = z.infer<typeof companyUserSchema>;

export const companySchema = z.object({
  id: z.number().int(),
  company_Name: z.string(),
  tax_Office: z.string(),
  tax_Number: z.string(),
  address: z.string(),
  phone: z.string(),
  website: z.string(),
  erpType: z.number().int(),
  ecommerceType: z.number().int(),
  created_Date: z.string(),
});
export type Company = z.infer<typeof companySchema>;

/** `company` is null only for our support team, who belong to no company. */
export const accountSchema = z.object({ companyUser: companyUserSchema, company: companySchema.nullable() });
export type Account = z.infer<typeof accountSchema>;

export const loginResultSchema = z.object({
  token: z.string(),
  /** ISO date-time; the web app compares it with the current time. */
  expiration: z.string(),
  user: companyUserSchema,
});
export type LoginResult = z.infer<typeof loginResultSchema>;

export const licenseSchema = z.object({
  id: z.number().int(),
  license_name: z.string(),
  license_description: z.string(),
  product_type: z.string(),
  image_file_name: z.string(),
  expire_date: z.string(),
  days_left: z.number().int(),
  is_trial: z.boolean(),
});
export type License = z.infer<typeof licenseSchema>;
