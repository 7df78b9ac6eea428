import { describe, expect, it } from 'vitest';
import { getContactConfigDefaults, getEmailConfigDefaults } from '../../app/services/admin-settings.server';
import { MAIL_TEMPLATES, renderMailTemplate } from '../../app/services/mail-templates.server';
import designTokens from '../../tailwind.config';

/** Every mail carries the product's teal (the design tokens), never a colour of its own (issue 8 §5). */
describe('mail templates: one brand', () => {
  const data = {
    link: 'https://druckpreis.example/verify-email?token=abc',
    name: 'Anna',
    email: 'anna@example.de',
    subject: 'Frage',
    message: 'Hallo',
    signInLink: 'https://druckpreis.example/auth',
    resetLink: 'https://druckpreis.example/forgot-password',
    newEmail: 'anna.neu@example.de',
    sender: 'Annas Druckerei',
    accountEmail: 'anna@example.de',
  };
  const tokens = designTokens.theme.extend.colors;
  const allowed = new Set(
    [tokens.brand[600], tokens.brand[700], tokens.ink.DEFAULT, tokens.ink.muted, tokens.surface.line, tokens.surface.subtle, '#ffffff'].map(
      (colour) => colour.toLowerCase(),
    ),
  );

  for (const template of MAIL_TEMPLATES) {
    it(`${template}: only the design tokens' colours, the brand teal for the name and buttons`, async () => {
      const settings = { email: await getEmailConfigDefaults(), contact: await getContactConfigDefaults(), appUrl: 'https://druckpreis.example' };
      const { html } = await renderMailTemplate(template, data, settings);
      const colours = new Set([...html.matchAll(/#[0-9a-f]{6}\b/gi)].map((match) => match[0].toLowerCase()));
      expect([...colours].filter((colour) => !allowed.has(colour))).toEqual([]);
      expect(html).not.toMatch(/#2563eb/i);
      expect(html).toContain(`color:${tokens.brand[600]}`);
    });
  }
});
