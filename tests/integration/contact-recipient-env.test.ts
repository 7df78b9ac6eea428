import { afterAll, describe, expect, it } from 'vitest';
import { AdminSetting, User } from '../../app/entities';
import { describeContactRecipient, findContactRecipient } from '../../app/models/contact.server';
import { action as contactAction } from '../../app/routes/api+/contact';
import { deliverPendingMails } from '../../app/services/mail.server';
import { parseEnv } from '../../app/lib/env.server';
import { apiRequest, call, createUser, randomIp, uniqueEmail, useAuthTestApp } from '../setup/auth-app';
import { useTestSmtpServer } from '../setup/smtp-server';

/*
 * CONTACT_EMAIL: where contact messages go until an admin sets a contact
 * address — ahead of the first admin. Sent for real over SMTP.
 */

const CONTACT_EMAIL = 'kontakt-fallback@druckpreis.example';
// Before anything reads the validated env (it is read once per process).
process.env.CONTACT_EMAIL = CONTACT_EMAIL;

const app = useAuthTestApp('contact_recipient_env');
const mailServer = useTestSmtpServer();

afterAll(async () => {
  delete process.env.CONTACT_EMAIL;
});

describe('CONTACT_EMAIL', () => {
  it('is validated as an e-mail address', () => {
    expect(() => parseEnv({ CONTACT_EMAIL: 'kein-postfach' })).toThrow(/CONTACT_EMAIL/);
    expect(parseEnv({ CONTACT_EMAIL: CONTACT_EMAIL }).CONTACT_EMAIL).toBe(CONTACT_EMAIL);
  });

  it('receives contact messages while the admin settings have no address, even with an admin', async () => {
    const admin = await createUser(app.orm, { email: uniqueEmail('admin') });
    await app.em().nativeUpdate(User, { email: admin.email }, { isAdmin: 1 });
    // An empty address in the settings counts as none.
    const em = app.em();
    em.create(AdminSetting, { key: 'contact_config', value: JSON.stringify({ contactEmail: '  ', enabled: true }) });
    await em.flush();

    const recipient = await findContactRecipient(app.em());
    expect(recipient).toEqual({ address: CONTACT_EMAIL, source: 'env' });
    expect(describeContactRecipient(recipient)).toMatch(new RegExp(`go to ${CONTACT_EMAIL} \\(CONTACT_EMAIL`));

    const sender = uniqueEmail('kundin');
    const response = await call(
      contactAction,
      apiRequest('/api/contact', 'POST', { name: 'Jo Beispiel', email: sender, subject: 'Frage zur Marge', message: 'Wie viel?' }, { ip: randomIp() }),
    );
    expect(response.status).toBe(200);
    for (let round = 0; round < 5; round++) if ((await deliverPendingMails({ em: app.orm.em.fork() })).sent === 0) break;
    const notification = mailServer.server.messages.find((mail) => mail.text.includes('Frage zur Marge') || mail.subject.includes('Frage zur Marge'));
    expect(notification, 'the notification arrived over SMTP').toBeDefined();
    expect(notification!.envelope.to).toEqual([CONTACT_EMAIL]);
    // The auto-reply went to the sender, not to the fallback.
    expect(mailServer.server.messages.some((mail) => mail.envelope.to.includes(sender))).toBe(true);
  });
});
