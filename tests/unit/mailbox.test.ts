import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { translateMessage } from '../../app/lib/messages';
import { firstLink, parseMail } from '../e2e/mailbox';

describe('e2e mailbox reader', () => {
  it('reads recipient, subject and links from a nodemailer message (quoted-printable, umlauts, long lines)', async () => {
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const link = `http://localhost:3210/reset-password?token=${'Ab_-'.repeat(10)}xyz`;
    const info = await transport.sendMail({
      from: '"Druckpreis – 3D-Druck Kostenrechner" <noreply@druckpreis.local>',
      to: 'jürgen-1@example.com',
      replyTo: 'someone-else@example.com',
      subject: 'Passwort zurücksetzen – Grüße',
      text: `Hallo Jürgen,\n${'Ä'.repeat(100)}\nÖffnen Sie ${link} innerhalb einer Stunde.\n`,
      html: `<p>Hallo <a href="${link}">zurücksetzen</a></p>`,
    });
    const mail = parseMail(info.message as Buffer)!;
    expect(mail.to).toContain('jürgen-1@example.com');
    expect(mail.to).not.toContain('someone-else');
    expect(mail.subject).toBe('Passwort zurücksetzen – Grüße');
    expect(mail.text).toContain('Ä'.repeat(100));
    expect(firstLink(mail, '/reset-password')).toBe(link);
  });

  it('decodes base64 bodies', async () => {
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const info = await transport.sendMail({
      from: 'a@example.com',
      to: 'b@example.com',
      subject: 'x',
      text: 'Link: https://example.com/verify-email?token=abc',
      textEncoding: 'base64',
    });
    expect(firstLink(parseMail(info.message as Buffer)!)).toBe('https://example.com/verify-email?token=abc');
  });
});

describe('translateMessage', () => {
  const t = (key: string) => `T(${key})`;
  it('translates i18n keys and leaves finished text alone', () => {
    expect(translateMessage(t, 'auth:errors.passwordMin')).toBe('T(auth:errors.passwordMin)');
    expect(translateMessage(t, 'Zu viele Versuche. Bitte warten Sie 15 Minute(n).')).toBe('Zu viele Versuche. Bitte warten Sie 15 Minute(n).');
    expect(translateMessage(t, 'Fehler: etwas')).toBe('Fehler: etwas');
  });
});
