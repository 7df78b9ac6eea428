/**
 * The zod schemas of the admin forms (spec §3 `admin_settings`, §5 "Admin"),
 * shared by the /admin page (Conform), the JSON API and the tests.
 * Browser-safe. Messages are i18n keys in namespace `admin`.
 *
 * The JSON API turns its body into form fields first (`bodyToFormData`), so
 * both read the same strings: numbers as text, a checked box as 'on'.
 */
import { z } from 'zod';

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const CONTROL_CHARACTERS_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const TEXT_MAX = 500;
const LONG_TEXT_MAX = 2000;

const e = (key: string) => `admin:errors.${key}`;

/** One line, optional ('' / missing → ''). */
const optionalLine = (max = TEXT_MAX) =>
  z
    .string()
    .trim()
    .max(max, e('tooLong'))
    .refine((value) => !CONTROL_CHARACTERS.test(value), e('controlCharacters'))
    .optional()
    .transform((value) => value ?? '');

/** One line, required, with the field's own 'ist erforderlich' message. */
const requiredLine = (field: string, max = TEXT_MAX) =>
  z
    .string({ error: e(`${field}Required`) })
    .trim()
    .min(1, e(`${field}Required`))
    .max(max, e('tooLong'))
    .refine((value) => !CONTROL_CHARACTERS.test(value), e('controlCharacters'));

const optionalText = (max = LONG_TEXT_MAX) =>
  z
    .string()
    .max(max, e('tooLong'))
    .refine((value) => !CONTROL_CHARACTERS_EXCEPT_LINES.test(value), e('controlCharacters'))
    .optional()
    .transform((value) => (value ?? '').trim());

/** A secret as typed (not trimmed); blank or missing means "keep the stored one". */
const secret = () =>
  z
    .string()
    .max(TEXT_MAX, e('tooLong'))
    .refine((value) => !CONTROL_CHARACTERS.test(value), e('controlCharacters'))
    .optional();

const checkbox = () => z.boolean().optional().transform((value) => value ?? false);

const emailAddress = (key: string) =>
  z
    .string({ error: e(key) })
    .trim()
    .max(254, e('tooLong'))
    .refine((value) => !CONTROL_CHARACTERS.test(value), e('controlCharacters'))
    .pipe(z.email(e(key)));

/** Blank or an address. Not a union: a union that fails answers zod's English "Invalid input" (CR/LF, NUL). */
const optionalEmailAddress = (key: string) =>
  z
    .string({ error: e(key) })
    .trim()
    .max(254, e('tooLong'))
    .refine((value) => !CONTROL_CHARACTERS.test(value), e('controlCharacters'))
    .refine((value) => value === '' || CONTROL_CHARACTERS.test(value) || z.email().safeParse(value).success, e(key))
    .optional()
    .transform((value) => value ?? '');

export const stripeSettingsSchema = z.object({
  publicKey: requiredLine('publicKey'),
  secretKey: secret(),
  clearSecretKey: checkbox(),
  productId: requiredLine('productId'),
  priceId: optionalLine(),
  webhookSecret: secret(),
  clearWebhookSecret: checkbox(),
  currency: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{3}$/, e('currencyInvalid'))
    .optional()
    .transform((value) => value ?? 'eur'),
  monthlyPrice: z.number({ error: e('monthlyPriceInvalid') }).int(e('monthlyPriceInvalid')).min(1, e('monthlyPriceMin')).max(10_000_000, e('monthlyPriceInvalid')),
});
export type StripeSettingsInput = z.infer<typeof stripeSettingsSchema>;

export const googleAdsSettingsSchema = z.object({
  clientId: requiredLine('clientId'),
  adSlotId: requiredLine('adSlotId'),
  enableAds: checkbox(),
  testMode: checkbox(),
});
export type GoogleAdsSettingsInput = z.infer<typeof googleAdsSettingsSchema>;

export const emailSettingsSchema = z.object({
  host: requiredLine('host', 253).refine((value) => /^[A-Za-z0-9.:[\]-]+$/.test(value), e('hostInvalid')),
  port: z.number({ error: e('portInvalid') }).int(e('portInvalid')).min(1, e('portInvalid')).max(65535, e('portInvalid')),
  secure: checkbox(),
  user: requiredLine('user'),
  password: secret(),
  clearPassword: checkbox(),
  fromEmail: emailAddress('fromEmailInvalid'),
  fromName: requiredLine('fromName', 120),
  verificationSubject: optionalLine(200),
  verificationUrl: z
    .union([z.literal(''), z.url({ protocol: /^https?$/, error: e('verificationUrlInvalid') }).max(TEXT_MAX, e('tooLong'))])
    .optional()
    .transform((value) => value ?? ''),
});
export type EmailSettingsInput = z.infer<typeof emailSettingsSchema>;

export const contactSettingsSchema = z.object({
  contactEmail: optionalEmailAddress('contactEmailInvalid'),
  autoReplySubject: optionalLine(200),
  autoReplyMessage: optionalText(),
  enabled: checkbox(),
});
export type ContactSettingsInput = z.infer<typeof contactSettingsSchema>;

export const operatorSettingsSchema = z.object({
  name: requiredLine('operatorName', 200),
  address: z
    .string({ error: e('addressRequired') })
    .trim()
    .min(1, e('addressRequired'))
    .max(LONG_TEXT_MAX, e('tooLong'))
    .refine((value) => !CONTROL_CHARACTERS_EXCEPT_LINES.test(value), e('controlCharacters')),
  phone: optionalLine(50),
  email: emailAddress('operatorEmailInvalid'),
  responsiblePerson: optionalLine(200),
  register: optionalLine(200),
  vatId: optionalLine(50),
});
export type OperatorSettingsInput = z.infer<typeof operatorSettingsSchema>;

/** 'Test-E-Mail senden': the address must contain an @ (the button waits for one) and be an address. */
export const testMailSchema = z.object({ testEmail: emailAddress('testEmailInvalid') });

/** The tabs of /admin, in the address as `?tab=`, and the settings group behind each settings tab. */
export const ADMIN_TABS = ['status', 'stripe', 'google-ads', 'email', 'contact', 'operator', 'users'] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

export const SETTINGS_TAB_GROUPS = {
  stripe: 'stripe_config',
  'google-ads': 'google_ads_config',
  email: 'email_config',
  contact: 'contact_config',
  operator: 'operator_config',
} as const;
export type SettingsTab = keyof typeof SETTINGS_TAB_GROUPS;

export const settingsSchemas = {
  stripe: stripeSettingsSchema,
  'google-ads': googleAdsSettingsSchema,
  email: emailSettingsSchema,
  contact: contactSettingsSchema,
  operator: operatorSettingsSchema,
} as const;

export function isSettingsTab(value: unknown): value is SettingsTab {
  return typeof value === 'string' && Object.hasOwn(SETTINGS_TAB_GROUPS, value);
}

/**
 * A JSON body as the form would send it: strings as they are, numbers as
 * text, `true` as 'on' (a checked box), `false`/null left out. Anything else
 * (arrays, objects) is left out too, so the schema says "required" or
 * "invalid" for it instead of crashing.
 */
export function bodyToFormData(body: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === 'string') form.append(key, value);
    else if (typeof value === 'number' && Number.isFinite(value)) form.append(key, String(value));
    else if (value === true) form.append(key, 'on');
  }
  return form;
}
