import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import {
  changePasswordSchema,
  contactSchema,
  forgotPasswordSchema,
  isHoneypotFilled,
  loginSchema,
  profileSchema,
  registerSchema,
  resetPasswordSchema,
} from '../../app/domain/auth-schemas';
import { COMMON_PASSWORDS } from '../../app/models/common-passwords';
import auth from '../../public/locales/de/auth.json';

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
}

function errorsOf(schema: Parameters<typeof parseWithZod>[1]['schema'], values: Record<string, string>) {
  const submission = parseWithZod(form(values), { schema });
  return submission.status === 'error' ? submission.error : null;
}

function translate(key: string): string {
  const [ns, path] = key.split(':');
  expect(ns).toBe('auth');
  const value = path.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], auth);
  expect(typeof value, `missing text for ${key}`).toBe('string');
  return value as string;
}

describe('auth schemas with conform (empty inputs arrive as missing fields)', () => {
  it('register: the spec messages', () => {
    const errors = errorsOf(registerSchema, { email: 'x', password: 'abc', confirmPassword: '', firstName: '', lastName: '' })!;
    expect(errors.email!.map(translate)).toEqual(['Bitte geben Sie eine gültige E-Mail-Adresse ein']);
    expect(errors.password!.map(translate)).toEqual(['Passwort muss mindestens 6 Zeichen lang sein']);
    expect(errors.firstName!.map(translate)).toEqual(['Vorname ist erforderlich']);
    expect(errors.lastName!.map(translate)).toEqual(['Nachname ist erforderlich']);
    // An empty confirmation is missing, not a mismatch (issue 8 §4).
    expect(errors.confirmPassword!.map(translate)).toEqual(['Passwort bestätigen ist erforderlich']);
    const empty = errorsOf(registerSchema, { email: '', password: '', confirmPassword: '', firstName: '', lastName: '' })!;
    expect(empty.confirmPassword!.map(translate)).toEqual(['Passwort bestätigen ist erforderlich']);
    const mismatch = errorsOf(registerSchema, {
      email: 'a@b.de',
      password: 'Zitronen-7',
      confirmPassword: 'Zitronen-8',
      firstName: 'A',
      lastName: 'B',
    })!;
    expect(mismatch.confirmPassword!.map(translate)).toEqual(['Passwörter stimmen nicht überein']);
  });

  it('register: valid input is trimmed', () => {
    const submission = parseWithZod(
      form({ email: ' Anna@Example.de ', password: 'Zitronen-7', confirmPassword: 'Zitronen-7', firstName: ' Anna ', lastName: 'B' }),
      { schema: registerSchema },
    );
    expect(submission.status).toBe('success');
    if (submission.status === 'success') expect(submission.value).toMatchObject({ email: 'Anna@Example.de', firstName: 'Anna' });
  });

  it('password change: the spec messages', () => {
    const errors = errorsOf(changePasswordSchema, { currentPassword: '', newPassword: '123', confirmPassword: '' })!;
    expect(errors.currentPassword!.map(translate)).toEqual(['Aktuelles Passwort ist erforderlich']);
    expect(errors.newPassword!.map(translate)).toEqual(['Neues Passwort muss mindestens 6 Zeichen haben']);
    expect(errors.confirmPassword!.map(translate)).toEqual(['Passwort bestätigen ist erforderlich']);
    const mismatch = errorsOf(changePasswordSchema, { currentPassword: 'x', newPassword: 'Zitronen-7', confirmPassword: 'Zitronen-8' })!;
    expect(mismatch.confirmPassword!.map(translate)).toEqual(['Passwörter stimmen nicht überein']);
  });

  it('profile, forgot password, reset, login', () => {
    const profile = errorsOf(profileSchema, { firstName: '', lastName: '', email: 'kaputt' })!;
    expect(profile.email!.map(translate)).toEqual(['Ungültige E-Mail-Adresse']);
    expect(errorsOf(forgotPasswordSchema, { email: '' })!.email!.map(translate)).toEqual([
      'Bitte geben Sie eine gültige E-Mail-Adresse ein',
    ]);
    const reset = errorsOf(resetPasswordSchema, { token: 't', password: 'abc', confirmPassword: 'abd' })!;
    expect(reset.password!.map(translate)).toEqual(['Passwort muss mindestens 6 Zeichen lang sein']);
    const emptyReset = errorsOf(resetPasswordSchema, { token: 't', password: '', confirmPassword: '' })!;
    expect(emptyReset.confirmPassword!.map(translate)).toEqual(['Passwort bestätigen ist erforderlich']);
    const resetMismatch = errorsOf(resetPasswordSchema, { token: 't', password: 'Zitronen-7', confirmPassword: 'Zitronen-8' })!;
    expect(resetMismatch.confirmPassword!.map(translate)).toEqual(['Passwörter stimmen nicht überein']);
    expect(errorsOf(loginSchema, { email: 'a@b.de', password: '' })!.password!.map(translate)).toEqual(['Passwort ist erforderlich']);
  });

  it('passwords: at most 72 bytes (UTF-8)', () => {
    const values = (password: string) => ({ email: 'a@b.de', password, confirmPassword: password, firstName: 'A', lastName: 'B' });
    expect(errorsOf(registerSchema, values('ü'.repeat(36)))).toBeNull();
    expect(errorsOf(registerSchema, values('ü'.repeat(37)))!.password!.map(translate)[0]).toMatch(/72 Byte/);
  });

  it('contact: required fields, single-line name and subject, empty honeypot', () => {
    const errors = errorsOf(contactSchema, { name: '', email: '', subject: '', message: '' })!;
    expect(Object.keys(errors).sort()).toEqual(['email', 'message', 'name', 'subject']);
    for (const messages of Object.values(errors)) messages!.forEach(translate);
    expect(errorsOf(contactSchema, { name: 'A', email: 'a@b.de', subject: 'x\nBcc: y@z.de', message: 'm' })!.subject).toEqual([
      'auth:errors.singleLine',
    ]);
    expect(errorsOf(contactSchema, { name: 'A', email: 'a@b.de', subject: 's', message: 'm', website: '' })).toBeNull();
    expect(errorsOf(contactSchema, { name: 'A', email: 'a@b.de', subject: 's', message: 'm', website: 'x' })!.website).toBeDefined();
    expect(isHoneypotFilled(form({ website: 'http://spam' }))).toBe(true);
    expect(isHoneypotFilled({ website: '' })).toBe(false);
    expect(isHoneypotFilled({})).toBe(false);
  });
});

describe('common passwords', () => {
  it('ships a list with the usual suspects, German ones included', () => {
    expect(COMMON_PASSWORDS.length).toBeGreaterThanOrEqual(1000);
    for (const password of ['123456', 'passwort', 'hallo123', 'qwertz', 'schatz', 'fussball', 'password1']) {
      expect(COMMON_PASSWORDS).toContain(password);
    }
    expect(COMMON_PASSWORDS.every((password) => password === password.toLowerCase())).toBe(true);
  });
});
