/**
 * The zod 4 schemas of the account forms (spec §3 "Auth payloads", §5 "Auth
 * and profile"), shared by the pages (conform), the JSON API routes and the
 * tests. Browser-safe: no Node imports.
 *
 * Error messages are i18n KEYS in namespace `auth` (public/locales/de/auth.json,
 * object `errors`), never German text: translate them with `t(message)`.
 *
 * Passwords: at least 6 characters (spec) and at most 72 BYTES in UTF-8,
 * because bcrypt silently ignores everything after byte 72. The common-password
 * check lives on the server (app/models/users.server.ts, `checkNewPassword`) so
 * the list is not shipped to every browser.
 */
import { z } from 'zod';

export const authErrorKeys = {
  emailInvalid: 'auth:errors.emailInvalid',
  profileEmailInvalid: 'auth:errors.profileEmailInvalid',
  emailTooLong: 'auth:errors.emailTooLong',
  passwordRequired: 'auth:errors.passwordRequired',
  passwordMin: 'auth:errors.passwordMin',
  passwordTooLong: 'auth:errors.passwordTooLong',
  passwordTooCommon: 'auth:errors.passwordTooCommon',
  passwordsDontMatch: 'auth:errors.passwordsDontMatch',
  confirmPasswordRequired: 'auth:errors.confirmPasswordRequired',
  currentPasswordRequired: 'auth:errors.currentPasswordRequired',
  newPasswordMin: 'auth:errors.newPasswordMin',
  firstNameRequired: 'auth:errors.firstNameRequired',
  lastNameRequired: 'auth:errors.lastNameRequired',
  nameTooLong: 'auth:errors.nameTooLong',
  tokenMissing: 'auth:errors.tokenMissing',
  contactNameRequired: 'auth:errors.contactNameRequired',
  contactNameTooLong: 'auth:errors.contactNameTooLong',
  contactSubjectRequired: 'auth:errors.contactSubjectRequired',
  contactSubjectTooLong: 'auth:errors.contactSubjectTooLong',
  contactMessageRequired: 'auth:errors.contactMessageRequired',
  contactMessageTooLong: 'auth:errors.contactMessageTooLong',
  singleLine: 'auth:errors.singleLine',
  honeypot: 'auth:errors.honeypot',
  imageUrlRequired: 'auth:errors.imageUrlRequired',
  imageInvalidAddress: 'auth:messages.imageInvalidAddress',
  emailTaken: 'auth:errors.emailTaken',
  controlCharacters: 'auth:errors.controlCharacters',
  fieldTooLong: 'auth:errors.fieldTooLong',
} as const;

const E = authErrorKeys;

export const PASSWORD_MIN_LENGTH = 6;
/** bcrypt reads at most 72 bytes; longer passwords would be truncated silently. */
export const PASSWORD_MAX_BYTES = 72;
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const CONTACT_SUBJECT_MAX_LENGTH = 200;
export const CONTACT_MESSAGE_MAX_LENGTH = 5000;

export function utf8ByteLength(value: string): number {
  return new TextEncoder().encode(value).length;
}

/**
 * Control characters never belong in what people type: a NUL byte is refused
 * by PostgreSQL (a 500 before this rule), cuts a bcrypt password short, and
 * the others hide text in mails and logs. Multi-line fields keep line breaks
 * and tabs; everything else refuses all of them.
 */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const CONTROL_CHARACTERS_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
export const hasControlCharacters = (value: string) => CONTROL_CHARACTERS.test(value);
const noControlCharacters = (value: string) => !CONTROL_CHARACTERS.test(value);
const noControlCharactersExceptLines = (value: string) => !CONTROL_CHARACTERS_EXCEPT_LINES.test(value);

// Conform (and a JSON body) may leave a field out entirely: conform turns an
// empty input into `undefined`. `z.string({ error })` gives a missing field the
// field's own German message instead of zod's generic "expected string".
// Line breaks are checked separately where a field must be a single line.
const requiredText = (message: string) =>
  z.string({ error: message }).trim().min(1, message).refine(noControlCharactersExceptLines, E.controlCharacters);

/** An address as entered; trimmed here, lower-cased by the users model. */
const email = (message: string = E.emailInvalid) =>
  z
    .string({ error: message })
    .trim()
    .max(EMAIL_MAX_LENGTH, E.emailTooLong)
    .refine(noControlCharacters, E.controlCharacters)
    .pipe(z.email(message));

/** A new password: 6 characters minimum, 72 bytes maximum. */
const newPassword = (minMessage: string = E.passwordMin) =>
  z
    .string({ error: minMessage })
    .min(PASSWORD_MIN_LENGTH, minMessage)
    .refine((value) => utf8ByteLength(value) <= PASSWORD_MAX_BYTES, E.passwordTooLong)
    .refine(noControlCharacters, E.controlCharacters);

const requiredName = (requiredMessage: string) => requiredText(requiredMessage).max(NAME_MAX_LENGTH, E.nameTooLong);

const singleLine = (value: string) => !/[\r\n]/.test(value);

/**
 * The repeated new password. Empty says "required", never "do not match" (an
 * empty form is not a mismatch); not trimmed, since it is compared with a
 * password that is not trimmed either.
 */
const passwordConfirmation = () =>
  z.string({ error: E.confirmPasswordRequired }).min(1, E.confirmPasswordRequired).max(1024, E.passwordTooLong);

export const registerSchema = z
  .object({
    email: email(),
    password: newPassword(),
    confirmPassword: passwordConfirmation(),
    firstName: requiredName(E.firstNameRequired),
    lastName: requiredName(E.lastNameRequired),
  })
  .refine((data) => data.password === data.confirmPassword, {
    message: E.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type RegisterInput = z.infer<typeof registerSchema>;

/** Sign-in checks only that something was entered; the password rules apply to new passwords. */
export const loginSchema = z.object({
  email: email(),
  password: z
    .string({ error: E.passwordRequired })
    .min(1, E.passwordRequired)
    .max(1024, E.passwordTooLong)
    .refine(noControlCharacters, E.controlCharacters),
  redirectTo: z.string().max(2048, E.fieldTooLong).optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const forgotPasswordSchema = z.object({ email: email() });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** Resend the confirmation mail (same shape as forgot password). */
export const resendVerificationSchema = forgotPasswordSchema;

export const resetPasswordSchema = z
  .object({
    token: requiredText(E.tokenMissing).max(256, E.tokenMissing),
    password: newPassword(),
    confirmPassword: passwordConfirmation(),
  })
  .refine((data) => data.password === data.confirmPassword, {
    message: E.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

export const profileSchema = z.object({
  firstName: requiredName(E.firstNameRequired),
  lastName: requiredName(E.lastNameRequired),
  email: email(E.profileEmailInvalid),
});
export type ProfileInput = z.infer<typeof profileSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string({ error: E.currentPasswordRequired })
      .min(1, E.currentPasswordRequired)
      .max(1024, E.passwordTooLong)
      .refine(noControlCharacters, E.controlCharacters),
    newPassword: newPassword(E.newPasswordMin),
    confirmPassword: requiredText(E.confirmPasswordRequired),
  })
  // An empty confirmation already says "required"; do not add "do not match" to it.
  .refine((data) => data.confirmPassword.trim() === '' || data.newPassword === data.confirmPassword, {
    message: E.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const profileImageSchema = z.object({
  // Too long is a wrong address, not a missing one.
  imageUrl: requiredText(E.imageUrlRequired).max(2048, E.imageInvalidAddress),
});

/**
 * Contact form. `website` is a honeypot: hidden from people, filled by bots.
 * It must stay empty; callers check `isHoneypotFilled` first and then pretend
 * success without storing anything. Name and subject are single lines (they
 * end up in mail headers).
 */
export const contactSchema = z.object({
  name: requiredText(E.contactNameRequired)
    .max(NAME_MAX_LENGTH, E.contactNameTooLong)
    .refine(singleLine, E.singleLine),
  email: email(),
  subject: requiredText(E.contactSubjectRequired)
    .max(CONTACT_SUBJECT_MAX_LENGTH, E.contactSubjectTooLong)
    .refine(singleLine, E.singleLine),
  message: requiredText(E.contactMessageRequired).max(CONTACT_MESSAGE_MAX_LENGTH, E.contactMessageTooLong),
  website: z.string().max(0, E.honeypot).optional(),
});
export type ContactInput = z.infer<typeof contactSchema>;

/** True when the honeypot field carries anything: a bot. Check it before validating the rest. */
export function isHoneypotFilled(input: unknown): boolean {
  if (input instanceof FormData) return String(input.get('website') ?? '').trim() !== '';
  if (input && typeof input === 'object' && 'website' in input) {
    const value = (input as { website?: unknown }).website;
    return typeof value === 'string' ? value.trim() !== '' : value != null && value !== '';
  }
  return false;
}
