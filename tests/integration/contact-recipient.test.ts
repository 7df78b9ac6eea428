import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AdminSetting, ContactMessage, User } from '../../app/entities';
import { describeContactRecipient, findContactRecipient } from '../../app/models/contact.server';
import { action as contactAction } from '../../app/routes/api+/contact';
import { deliverPendingMails } from '../../app/services/mail.server';
import { apiRequest, call, createUser, randomIp, uniqueEmail, useAuthTestApp } from '../setup/auth-app';
import { useTestSmtpServer } from '../setup/smtp-server';

/*
 * Contact messages must reach somebody (issue 8 §4): without a contact
 * address in the admin settings and without CONTACT_EMAIL they go to the
 * first admin. Sent for real: outbox → nodemailer → a real SMTP server.
 * (CONTACT_EMAIL itself: contact-recipient-env.test.ts, since the validated
 * env is read once per process.)
 */

const app = useAuthTestApp('contact_recipient');
const mailServer = useTestSmtpServer();

beforeAll(async () => {
  delete process.env.CONTACT_EMAIL;
});

afterEach(() => {
  vi.restoreAllMocks();
});

const send = (email: string, subject: string) =>
  call(contactAction, apiRequest('/api/contact', 'POST', { name: 'Paula Weber', email, subject, message: 'Gibt es Mengenrabatt?' }, { ip: randomIp() }));

async function deliverAll() {
  for (let round = 0; round < 5; round++) {
    if ((await deliverPendingMails({ em: app.orm.em.fork() })).sent === 0) break;
  }
}

function notificationsAbout(subject: string) {
  return mailServer.server.messages.filter((mail) => mail.text.includes(subject) || mail.subject.includes(subject));
}

describe('where contact messages go', () => {
  it('without anyone to tell, the message is stored and the log says nobody gets it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await findContactRecipient(app.em())).toBeNull();
    expect(describeContactRecipient(null)).toMatch(/reach nobody/);
    const sender = uniqueEmail('niemand');
    expect((await send(sender, 'Niemand liest das')).status).toBe(200);
    expect(await app.em().count(ContactMessage, { email: sender })).toBe(1);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/nobody is notified/));
    // Nobody reads it: no auto-reply promising an answer within 24 hours (issue 20).
    await deliverAll();
    expect(mailServer.server.messages.filter((mail) => mail.envelope.to.includes(sender))).toEqual([]);
  });

  it('goes to the first admin when neither the admin settings nor CONTACT_EMAIL name an address', async () => {
    const first = await createUser(app.orm, { email: uniqueEmail('erste-admin') });
    const second = await createUser(app.orm, { email: uniqueEmail('zweite-admin') });
    await app.em().nativeUpdate(User, { email: first.email }, { isAdmin: 1, createdAt: new Date(Date.now() - 60_000) });
    await app.em().nativeUpdate(User, { email: second.email }, { isAdmin: 1 });

    const recipient = await findContactRecipient(app.em());
    expect(recipient).toEqual({ address: first.email, source: 'firstAdmin' });
    expect(describeContactRecipient(recipient)).toBe(
      `contact messages go to ${first.email} (the first admin; set CONTACT_EMAIL or the admin settings' contact address to change it)`,
    );

    const sender = uniqueEmail('kundin');
    expect((await send(sender, 'Frage an die Admins')).status).toBe(200);
    await deliverAll();
    const [notification] = notificationsAbout('Frage an die Admins');
    expect(notification, 'the notification arrived over SMTP').toBeDefined();
    expect(notification.envelope.to).toEqual([first.email]);
    expect(notification.header('reply-to')).toContain(sender);
  });

  it('the contact address of the admin settings wins', async () => {
    const em = app.em();
    em.create(AdminSetting, { key: 'contact_config', value: JSON.stringify({ contactEmail: 'postfach@druckpreis.example', enabled: false }) });
    await em.flush();
    expect(await findContactRecipient(app.em())).toEqual({ address: 'postfach@druckpreis.example', source: 'settings' });

    expect((await send(uniqueEmail('kunde'), 'Frage an das Postfach')).status).toBe(200);
    await deliverAll();
    const [notification] = notificationsAbout('Frage an das Postfach');
    expect(notification.envelope.to).toEqual(['postfach@druckpreis.example']);
  });
});
