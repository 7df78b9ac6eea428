import fs from 'node:fs';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOrmConfig } from '../../mikro-orm.config';
import { AdminAuditEntry, AdminSetting, MailOutbox, PendingUpload, Printer, Project, Session, User } from '../../app/entities';
import { loader as adminLoader, action as adminAction } from '../../app/routes/_admin+/admin';
import { loader as settingsLoader } from '../../app/routes/api+/admin.settings';
import { action as settingsGroupAction } from '../../app/routes/api+/admin.settings.$group';
import { action as smtpTestAction } from '../../app/routes/api+/admin.settings.email.test/route';
import { action as sendTestAction } from '../../app/routes/api+/admin.settings.email.send-test';
import { loader as usersLoader } from '../../app/routes/api+/admin.users';
import { action as userDeleteAction } from '../../app/routes/api+/admin.users.$id';
import { action as profileAction } from '../../app/routes/api+/profile';
import { loader as exportLoader } from '../../app/routes/api+/profile.export';
import { getEmailConfig, getStripeConfig, findUndecryptableSettings, readSettings, reencryptSettings } from '../../app/services/admin-settings.server';
import { keyIdOf, settingsKeyring } from '../../app/services/settings-crypto.server';
import { getFileStore } from '../../app/services/storage.server';
import { apiRequest, createUser, formRequest, type Handler, invoke, type Outcome, signInThroughApi, useAuthTestApp } from '../setup/auth-app';
import { closedPort, startAuthSmtpServer, startFakeStripe, startPasswordTrap, startSilentServer } from '../setup/admin-helpers';

const app = useAuthTestApp('admin');

/** Signs in through POST /api/auth/login (an admin with `admin: true`). */
const signIn = (options: Parameters<typeof signInThroughApi>[1] = {}) => signInThroughApi(app.orm, options);

const STRIPE = {
  publicKey: 'pk_test_public',
  secretKey: 'sk_test_VERYSECRET_1234567890',
  productId: 'prod_123',
  priceId: '',
  webhookSecret: 'whsec_ALSOSECRET_0987654321',
  currency: 'eur',
  monthlyPrice: 399,
};

let admin: Awaited<ReturnType<typeof signIn>>;
let user: Awaited<ReturnType<typeof signIn>>;

beforeAll(async () => {
  delete process.env.SETTINGS_ENCRYPTION_KEY;
  admin = await signIn({ admin: true });
  user = await signIn();
});

describe('role matrix', () => {
  const cases: { label: string; run: (cookie: string | null) => Promise<Outcome>; page?: boolean }[] = [
    { label: 'GET /admin', page: true, run: (cookie) => invoke(adminLoader as Handler, apiRequest('/admin?tab=email', 'GET', undefined, { cookie })) },
    { label: 'POST /admin', page: true, run: (cookie) => invoke(adminAction as Handler, formRequest('/admin?tab=contact', { intent: 'save', tab: 'contact', contactEmail: 'kontakt@example.de' }, cookie)) },
    { label: 'GET /api/admin/settings', run: (cookie) => invoke(settingsLoader as Handler, apiRequest('/api/admin/settings', 'GET', undefined, { cookie })) },
    {
      label: 'POST /api/admin/settings/contact',
      run: (cookie) => invoke(settingsGroupAction as Handler, apiRequest('/api/admin/settings/contact', 'POST', { contactEmail: 'kontakt@example.de', enabled: true }, { cookie }), { group: 'contact' }),
    },
    { label: 'POST /api/admin/settings/email/test', run: (cookie) => invoke(smtpTestAction as Handler, apiRequest('/api/admin/settings/email/test', 'POST', {}, { cookie })) },
    { label: 'POST /api/admin/settings/email/send-test', run: (cookie) => invoke(sendTestAction as Handler, apiRequest('/api/admin/settings/email/send-test', 'POST', { testEmail: 'test@example.de' }, { cookie })) },
    { label: 'GET /api/admin/users', run: (cookie) => invoke(usersLoader as Handler, apiRequest('/api/admin/users', 'GET', undefined, { cookie })) },
    {
      label: 'DELETE /api/admin/users/<id>',
      run: (cookie) => invoke(userDeleteAction as Handler, apiRequest(`/api/admin/users/${admin.id}`, 'DELETE', undefined, { cookie }), { id: admin.id }),
    },
  ];

  it('sends visitors to /api/login (pages) or answers 401 (API)', async () => {
    for (const entry of cases) {
      const outcome = await entry.run(null);
      if (entry.page) {
        expect(outcome.status, entry.label).toBe(302);
        expect(outcome.headers.get('Location'), entry.label).toBe('/api/login');
      } else {
        expect(outcome.status, entry.label).toBe(401);
      }
    }
  });

  it('refuses signed-in non-admins with 403 (the page: access-denied card and toast)', async () => {
    for (const entry of cases) {
      const outcome = await entry.run(user.cookie);
      expect(outcome.status, entry.label).toBe(403);
      if (!entry.page) expect((outcome.body as { message: string }).message, entry.label).toMatch(/Berechtigung|verweigert/);
    }
    const page = await invoke(adminLoader as Handler, apiRequest('/admin', 'GET', undefined, { cookie: user.cookie }));
    expect(page.body).toMatchObject({ allowed: false, pageToast: { title: 'Zugriff verweigert', description: 'Sie haben keine Berechtigung für diese Seite.' } });
    expect(await app.em().count(AdminSetting, { key: 'contact_config' })).toBe(0);
  });

  it('lets admins in (self-delete through the admin API is refused)', async () => {
    const statuses = [];
    for (const entry of cases) statuses.push([entry.label, (await entry.run(admin.cookie)).status]);
    expect(statuses).toEqual([
      ['GET /admin', 200],
      ['POST /admin', 302],
      ['GET /api/admin/settings', 200],
      ['POST /api/admin/settings/contact', 200],
      // No SMTP host saved: the test says so with a 422, never a 5xx; the test mail goes to the .eml files.
      ['POST /api/admin/settings/email/test', 422],
      ['POST /api/admin/settings/email/send-test', 200],
      ['GET /api/admin/users', 200],
      ['DELETE /api/admin/users/<id>', 403],
    ]);
  });
});

describe('settings and secrets', () => {
  it('validates each group with German messages and saves one group without touching another', async () => {
    const empty = async (group: string) =>
      invoke(settingsGroupAction as Handler, apiRequest(`/api/admin/settings/${group}`, 'POST', {}, { cookie: admin.cookie }), { group });
    const stripe = await empty('stripe');
    expect(stripe.status).toBe(400);
    expect(stripe.body).toMatchObject({
      message: 'Die Stripe-Konfiguration konnte nicht gespeichert werden.',
      errors: { publicKey: ['Public Key ist erforderlich'], productId: ['Produkt-ID ist erforderlich'] },
    });
    const ads = await empty('google-ads');
    expect(ads.body).toMatchObject({ errors: { clientId: ['Client-ID ist erforderlich'], adSlotId: ['Anzeigenblock-ID ist erforderlich'] } });
    const email = await empty('email');
    expect(email.body).toMatchObject({ errors: { host: ['SMTP-Server ist erforderlich'], user: ['Benutzername ist erforderlich'], fromName: ['Absendername ist erforderlich'] } });
    const badEmail = await invoke(
      settingsGroupAction as Handler,
      apiRequest('/api/admin/settings/email', 'POST', { host: 'smtp.example.de', port: 0, user: 'u', fromEmail: 'kein-at', fromName: 'X', verificationUrl: 'ftp://x' }, { cookie: admin.cookie }),
      { group: 'email' },
    );
    expect(badEmail.body).toMatchObject({
      errors: {
        port: ['Port muss eine Zahl zwischen 1 und 65535 sein'],
        fromEmail: ['Bitte eine gültige Absenderadresse eingeben'],
        verificationUrl: ['Bitte eine gültige Adresse (http:// oder https://) eingeben'],
      },
    });
    const contact = await invoke(
      settingsGroupAction as Handler,
      apiRequest('/api/admin/settings/contact', 'POST', { contactEmail: 'nope' }, { cookie: admin.cookie }),
      { group: 'contact' },
    );
    expect(contact.body).toMatchObject({ errors: { contactEmail: ['Bitte eine gültige E-Mail-Adresse eingeben'] } });
    const price = await invoke(
      settingsGroupAction as Handler,
      apiRequest('/api/admin/settings/stripe', 'POST', { ...STRIPE, monthlyPrice: 0 }, { cookie: admin.cookie }),
      { group: 'stripe' },
    );
    expect(price.body).toMatchObject({ errors: { monthlyPrice: ['Monatspreis muss mindestens 1 Cent sein'] } });

    const before = await app.em().findOne(AdminSetting, { key: 'contact_config' });
    const saved = await invoke(
      settingsGroupAction as Handler,
      apiRequest('/api/admin/settings/google-ads', 'POST', { clientId: 'ca-pub-1', adSlotId: '42', enableAds: true, testMode: true }, { cookie: admin.cookie }),
      { group: 'google-ads' },
    );
    expect(saved.status).toBe(200);
    const after = await app.em().findOne(AdminSetting, { key: 'contact_config' });
    expect(after?.value).toBe(before?.value);
  });

  it('never shows a secret, stores it encrypted, keeps it when left blank and clears it on request', async () => {
    // A required secret that is neither entered nor stored is 'ist erforderlich'.
    const missing = await invoke(
      settingsGroupAction as Handler,
      apiRequest('/api/admin/settings/stripe', 'POST', { ...STRIPE, secretKey: '', webhookSecret: '' }, { cookie: admin.cookie }),
      { group: 'stripe' },
    );
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ errors: { secretKey: ['Secret Key ist erforderlich'], webhookSecret: ['Webhook-Secret ist erforderlich'] } });

    const saved = await invoke(settingsGroupAction as Handler, apiRequest('/api/admin/settings/stripe', 'POST', STRIPE, { cookie: admin.cookie }), { group: 'stripe' });
    expect(saved.status).toBe(200);
    const row = await app.em().findOneOrFail(AdminSetting, { key: 'stripe_config' });
    expect(row.value).not.toContain('VERYSECRET');
    expect(row.value).not.toContain('ALSOSECRET');
    expect(JSON.parse(row.value).secretKey).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(await getStripeConfig(app.em())).toMatchObject({ secretKey: STRIPE.secretKey, webhookSecret: STRIPE.webhookSecret, monthlyPrice: 399 });

    // Also the e-mail password, through the page's form.
    const page = await invoke(
      adminAction as Handler,
      formRequest(
        '/admin?tab=email',
        { intent: 'save', tab: 'email', host: '127.0.0.1', port: '2525', user: 'mailer', password: 'smtp-PASSWORT-geheim', fromEmail: 'shop@example.de', fromName: 'Shop' },
        admin.cookie,
      ),
    );
    expect(page.status).toBe(302);
    expect((await getEmailConfig(app.em())).password).toBe('smtp-PASSWORT-geheim');

    const answers = [
      await invoke(settingsLoader as Handler, apiRequest('/api/admin/settings', 'GET', undefined, { cookie: admin.cookie })),
      await invoke(adminLoader as Handler, apiRequest('/admin?tab=stripe', 'GET', undefined, { cookie: admin.cookie })),
      await invoke(adminLoader as Handler, apiRequest('/admin?tab=email', 'GET', undefined, { cookie: admin.cookie })),
      await invoke(adminLoader as Handler, apiRequest('/admin?tab=status', 'GET', undefined, { cookie: admin.cookie })),
    ];
    for (const answer of answers) {
      expect(answer.text).not.toContain('VERYSECRET');
      expect(answer.text).not.toContain('ALSOSECRET');
      expect(answer.text).not.toContain('PASSWORT-geheim');
      expect(answer.text).not.toContain('enc:v1');
    }
    expect(answers[0].body).toMatchObject({
      stripe_config: { publicKey: 'pk_test_public', secretKey: '', secretKeySet: true, webhookSecretSet: true },
      email_config: { password: '', passwordSet: true, host: '127.0.0.1' },
      google_ads_config: { clientId: 'ca-pub-1', enableAds: true, testMode: true },
    });

    // Blank keeps; the checkbox clears (and then the secret is required again).
    const kept = await invoke(
      settingsGroupAction as Handler,
      apiRequest('/api/admin/settings/stripe', 'POST', { ...STRIPE, secretKey: '', webhookSecret: undefined, productId: 'prod_456' }, { cookie: admin.cookie }),
      { group: 'stripe' },
    );
    expect(kept.status).toBe(200);
    expect(await getStripeConfig(app.em())).toMatchObject({ secretKey: STRIPE.secretKey, webhookSecret: STRIPE.webhookSecret, productId: 'prod_456' });
    const cleared = await invoke(
      settingsGroupAction as Handler,
      apiRequest('/api/admin/settings/stripe', 'POST', { ...STRIPE, secretKey: '', clearWebhookSecret: true }, { cookie: admin.cookie }),
      { group: 'stripe' },
    );
    expect(cleared.status).toBe(400);
    expect(cleared.body).toMatchObject({ errors: { webhookSecret: ['Webhook-Secret ist erforderlich'] } });
    await invoke(settingsGroupAction as Handler, apiRequest('/api/admin/settings/stripe', 'POST', STRIPE, { cookie: admin.cookie }), { group: 'stripe' });

    // A saved change is read by a second instance (another ORM, own pool) at once: no per-process cache.
    const second = await MikroORM.init(createOrmConfig(process.env.DATABASE_URL!));
    try {
      await invoke(
        settingsGroupAction as Handler,
        apiRequest('/api/admin/settings/contact', 'POST', { contactEmail: 'neu@example.de', enabled: false }, { cookie: admin.cookie }),
        { group: 'contact' },
      );
      expect((await readSettings(second.em.fork(), 'contact_config')).config).toMatchObject({ contactEmail: 'neu@example.de', enabled: false });
    } finally {
      await second.close(true);
    }

    const audit = await app.em().find(AdminAuditEntry, { action: 'settings.save', target: 'stripe_config' });
    expect(audit.length).toBeGreaterThan(0);
    expect(audit[0].actorEmail).toBe(admin.email);
    expect(JSON.stringify(audit)).not.toContain('VERYSECRET');
  });

  it('rotates keys: old values still open, re-encryption moves them, a value no key opens is reported without a crash', async () => {
    const oldKeyId = keyIdOf(JSON.parse((await app.em().findOneOrFail(AdminSetting, { key: 'stripe_config' })).value).secretKey as string);
    expect(oldKeyId).toBe(settingsKeyring()[0].id);
    const newKey = 'n'.repeat(40);
    process.env.SETTINGS_ENCRYPTION_KEY = newKey;
    try {
      // The generated key stays a decryption key while the variable is set.
      expect((await getStripeConfig(app.em())).secretKey).toBe(STRIPE.secretKey);
      const report = await reencryptSettings(app.em());
      expect(report.reencrypted).toBe(3);
      expect(report.failed).toEqual([]);
      const values = JSON.parse((await app.em().findOneOrFail(AdminSetting, { key: 'stripe_config' })).value);
      expect(keyIdOf(values.secretKey)).toBe(settingsKeyring()[0].id);
      expect(keyIdOf(values.secretKey)).not.toBe(oldKeyId);
      expect((await reencryptSettings(app.em())).reencrypted).toBe(0);

      // Now only another key: nothing opens the stored values.
      process.env.SETTINGS_ENCRYPTION_KEY = 'x'.repeat(40);
      fs.rmSync(path.join(process.env.DATA_DIR!, 'secrets', 'settings-encryption.key'));
      expect(await findUndecryptableSettings(app.em())).toEqual([
        { group: 'stripe_config', fields: ['secretKey', 'webhookSecret'] },
        { group: 'email_config', fields: ['password'] },
      ]);
      const stripe = await getStripeConfig(app.em());
      expect(stripe.secretKey).toBe('');
      expect(stripe.publicKey).toBe('pk_test_public');
      const status = await invoke(adminLoader as Handler, apiRequest('/admin?tab=status', 'GET', undefined, { cookie: admin.cookie }));
      expect(status.status).toBe(200);
      expect(status.body).toMatchObject({ status: { status: { settingsProblems: [{ group: 'stripe_config' }, { group: 'email_config' }] } } });
      const api = await invoke(settingsLoader as Handler, apiRequest('/api/admin/settings', 'GET', undefined, { cookie: admin.cookie }));
      expect(api.body).toMatchObject({ stripe_config: { secretKeySet: true, secretKeyUnreadable: true } });
      // Keeping an unreadable secret is not possible: it must be entered again.
      const keep = await invoke(settingsGroupAction as Handler, apiRequest('/api/admin/settings/stripe', 'POST', { ...STRIPE, secretKey: '' }, { cookie: admin.cookie }), {
        group: 'stripe',
      });
      expect(keep.status).toBe(400);

      // Both keys again (new first): everything opens.
      process.env.SETTINGS_ENCRYPTION_KEY = `${'x'.repeat(40)},${newKey}`;
      expect(await findUndecryptableSettings(app.em())).toEqual([]);
      expect((await getEmailConfig(app.em())).password).toBe('smtp-PASSWORT-geheim');
    } finally {
      process.env.SETTINGS_ENCRYPTION_KEY = `${'x'.repeat(40)},${newKey}`;
    }
  });
});

describe('SMTP test and test mail', () => {
  it('answers reachable, stopped and never-answering servers; the test mail goes through the outbox', async () => {
    const smtp = await startAuthSmtpServer();
    const silent = await startSilentServer();
    try {
      const saveEmail = (port: number, password = smtp.pass) =>
        invoke(
          settingsGroupAction as Handler,
          apiRequest('/api/admin/settings/email', 'POST', { host: '127.0.0.1', port, user: smtp.user, password, fromEmail: 'shop@example.de', fromName: 'Shop' }, { cookie: admin.cookie }),
          { group: 'email' },
        );
      expect((await saveEmail(smtp.port)).status).toBe(200);
      const ok = await invoke(smtpTestAction as Handler, apiRequest('/api/admin/settings/email/test', 'POST', {}, { cookie: admin.cookie }));
      expect(ok).toMatchObject({ status: 200, body: { message: 'SMTP-Server ist erreichbar (keine E-Mail gesendet).' } });

      // Entered values (page form, without saving): a wrong password is the server's message.
      const wrong = await invoke(
        adminAction as Handler,
        formRequest('/admin?tab=email', { intent: 'smtpTest', host: '127.0.0.1', port: String(smtp.port), user: smtp.user, password: 'falsch' }, admin.cookie),
      );
      expect(wrong.status).toBe(422);
      expect(wrong.body).toMatchObject({ intent: 'smtpTest', ok: false, title: 'Verbindungstest fehlgeschlagen' });
      // What was typed comes back into the form (without JavaScript too), the password never.
      expect(wrong.body).toMatchObject({ entered: { host: '127.0.0.1', port: String(smtp.port), user: smtp.user } });
      expect(JSON.stringify(wrong.body)).not.toContain('falsch');
      expect((wrong.body as { message: string }).message).toBe('Die Anmeldung am SMTP-Server ist fehlgeschlagen. Bitte Benutzer und Passwort prüfen.');

      // A blank password means the saved one only for the saved server; another host never gets it.
      const same = await invoke(adminAction as Handler, formRequest('/admin?tab=email', { intent: 'smtpTest', host: '127.0.0.1', port: String(smtp.port), user: smtp.user }, admin.cookie));
      expect(same.status).toBe(200);
      const trap = await startPasswordTrap({ accept: false });
      try {
        const { heard, port: trapPort } = trap;
        for (const fields of [{ port: String(trapPort), user: smtp.user }, { port: String(trapPort), user: 'angreifer' }]) {
          const probe = await invoke(adminAction as Handler, formRequest('/admin?tab=email', { intent: 'smtpTest', host: '127.0.0.1', ...fields }, admin.cookie));
          expect(probe.status).toBe(422);
        }
        expect(heard).not.toContain(smtp.pass);
      } finally {
        await trap.close();
      }

      const sent = await invoke(sendTestAction as Handler, apiRequest('/api/admin/settings/email/send-test', 'POST', { testEmail: 'empfang@example.de' }, { cookie: admin.cookie }));
      expect(sent).toMatchObject({ status: 200, body: { message: 'Die Test-E-Mail an empfang@example.de wurde versendet.' } });
      expect(smtp.received.at(-1)?.to).toEqual(['empfang@example.de']);
      expect(await app.em().count(MailOutbox, { to: 'empfang@example.de', status: 'sent' })).toBe(1);
      const invalid = await invoke(sendTestAction as Handler, apiRequest('/api/admin/settings/email/send-test', 'POST', { testEmail: 'kein-at' }, { cookie: admin.cookie }));
      expect(invalid.status).toBe(400);

      await smtp.stop();
      const stopped = await invoke(smtpTestAction as Handler, apiRequest('/api/admin/settings/email/test', 'POST', {}, { cookie: admin.cookie }));
      expect(stopped.status).toBe(422);
      expect((stopped.body as { message: string }).message).toBe('Der SMTP-Server hat die Verbindung abgelehnt. Bitte Host und Port prüfen.');
      expect(stopped.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
      const notSent = await invoke(sendTestAction as Handler, apiRequest('/api/admin/settings/email/send-test', 'POST', { testEmail: 'zwei@example.de' }, { cookie: admin.cookie }));
      expect(notSent.status).toBe(422);
      expect(await app.em().count(MailOutbox, { to: 'zwei@example.de', status: 'failed' })).toBe(1);

      await saveEmail(silent.port);
      const started = Date.now();
      const hanging = await invoke(smtpTestAction as Handler, apiRequest('/api/admin/settings/email/test', 'POST', {}, { cookie: admin.cookie }));
      const took = Date.now() - started;
      expect(hanging.status).toBe(422);
      expect((hanging.body as { message: string }).message).toBe('Der SMTP-Server hat nicht rechtzeitig geantwortet. Bitte Host, Port und Firewall prüfen.');
      expect(took).toBeLessThan(11_500);
      expect(took).toBeGreaterThan(9_000);
      expect(await app.em().count(AdminAuditEntry, { action: 'settings.smtpTest' })).toBeGreaterThanOrEqual(3);
    } finally {
      await smtp.stop();
      await silent.stop();
    }
  }, 40_000);
});

describe('users tab', () => {
  it('searches case-insensitively on address and names, pages with X-Total-Count', async () => {
    const tag = `suche${Date.now()}`;
    for (let index = 0; index < 27; index++) {
      await createUser(app.orm, { email: `${tag}.${index}@example.de`, firstName: index === 3 ? 'Zacharias' : 'Max', lastName: index === 4 ? `Übel${tag}` : 'Muster' });
    }
    const list = (query: string) => invoke(usersLoader as Handler, apiRequest(`/api/admin/users?${query}`, 'GET', undefined, { cookie: admin.cookie }));
    const first = await list(`search=${tag.toUpperCase()}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('X-Total-Count')).toBe('27');
    expect((first.body as unknown[]).length).toBe(25);
    const second = await list(`search=${tag}&page=2`);
    expect((second.body as unknown[]).length).toBe(2);
    const byName = await list('search=zachar');
    expect(byName.body).toEqual([expect.objectContaining({ firstName: 'Zacharias', projectCount: 0, emailVerified: true })]);
    expect(byName.text).not.toMatch(/password|Token/);
    const byLast = await list(`search=übel${tag}`);
    expect(byLast.headers.get('X-Total-Count')).toBe('1');
    const wildcard = await list('search=%25');
    expect(wildcard.headers.get('X-Total-Count')).toBe('0');
  });
});

describe('account deletion', () => {
  async function populatedUser(options: { stripeSubscriptionId?: string } = {}) {
    const owner = await signIn();
    const em = app.em();
    const managed = await em.findOneOrFail(User, { id: owner.id });
    const store = getFileStore();
    const profileKey = `profile/${owner.id}/${'a'.repeat(32)}`;
    const productKey = `product/${owner.id}/${'b'.repeat(32)}`;
    await store.put(profileKey, Buffer.from('jpeg'), 'image/jpeg');
    await store.put(productKey, Buffer.from('jpeg'), 'image/jpeg');
    managed.profileImageUrl = `/images/${profileKey}`;
    if (options.stripeSubscriptionId) {
      managed.stripeSubscriptionId = options.stripeSubscriptionId;
      managed.isPremium = 1;
    }
    em.create(Printer, { user: managed, name: 'Drucker', wattage: 200, cost: 300, lifetimeHours: 3000 } as never);
    em.create(Project, {
      user: managed,
      name: 'Projekt',
      quantity: 1,
      filamentWeight: 25,
      filamentPricePerKg: 25,
      printTime: 2,
      printerWattage: 200,
      electricityRate: 0.32,
      preparationTime: 15,
      postProcessingTime: 10,
      hourlyRate: 15,
      packagingCost: 0.5,
      shippingCost: 4.95,
      marketplaceFeePercentage: 0.05,
      profitMargin: 25,
      targetPrice: 0,
      productImagePath: `/images/${productKey}`,
    } as never);
    em.create(MailOutbox, { to: owner.email, subject: 'x', html: 'x', text: 'x', template: 'test' });
    await em.flush();
    return { ...owner, profileKey, productKey };
  }

  async function gone(owner: Awaited<ReturnType<typeof populatedUser>>) {
    const em = app.em();
    expect(await em.count(User, { id: owner.id })).toBe(0);
    expect(await em.count(Project, { user: owner.id })).toBe(0);
    expect(await em.count(Printer, { user: owner.id })).toBe(0);
    expect(await em.count(MailOutbox, { to: owner.email })).toBe(0);
    expect(await em.count(PendingUpload, { userId: owner.id })).toBe(0);
    const sessions = await em.getConnection().execute(`select count(*)::int as n from sessions where sess->>'userId' = ?`, [owner.id]);
    expect(sessions[0].n).toBe(0);
    expect(await getFileStore().get(owner.profileKey)).toBeNull();
    expect(await getFileStore().get(owner.productKey)).toBeNull();
  }

  it('lets an admin delete an account with everything it owns; not oneself, not the last admin', async () => {
    const owner = await populatedUser();
    const deleted = await invoke(userDeleteAction as Handler, apiRequest(`/api/admin/users/${owner.id}`, 'DELETE', undefined, { cookie: admin.cookie }), { id: owner.id });
    expect(deleted.status).toBe(200);
    await gone(owner);
    expect(await app.em().count(AdminAuditEntry, { action: 'user.delete', target: owner.email })).toBe(1);
    // The session of the deleted account no longer signs anyone in.
    const after = await invoke(exportLoader as Handler, apiRequest('/api/profile/export', 'GET', undefined, { cookie: owner.cookie }));
    expect(after.status).toBe(401);

    const self = await invoke(userDeleteAction as Handler, apiRequest(`/api/admin/users/${admin.id}`, 'DELETE', undefined, { cookie: admin.cookie }), { id: admin.id });
    expect(self.status).toBe(403);
    const unknown = await invoke(userDeleteAction as Handler, apiRequest('/api/admin/users/00000000-0000-4000-8000-000000000000', 'DELETE', undefined, { cookie: admin.cookie }), {
      id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);

    // The page form: a second admin deletes the first; the first cannot then delete the (now) last admin.
    const other = await signIn({ admin: true });
    const page = await invoke(adminAction as Handler, formRequest('/admin?tab=users', { intent: 'deleteUser', id: other.id }, admin.cookie));
    expect(page.status).toBe(302);
    expect(await app.em().count(User, { id: other.id })).toBe(0);
    const own = await invoke(profileAction as Handler, apiRequest('/api/profile', 'DELETE', { currentPassword: admin.password }, { cookie: admin.cookie }));
    expect(own.status).toBe(403);
    expect((own.body as { message: string }).message).toMatch(/letzte Admin/);
  });

  it('two admins deleting each other (or themselves) at the same moment leave one admin', async () => {
    const a = await signIn({ admin: true });
    const b = await signIn({ admin: true });
    // Only these two are admins for this test.
    const others = (await app.em().find(User, { isAdmin: 1, id: { $nin: [a.id, b.id] } })).map((user) => user.id);
    await app.em().nativeUpdate(User, { id: { $in: others } }, { isAdmin: 0 });
    try {
      const [first, second] = await Promise.all([
        invoke(userDeleteAction as Handler, apiRequest(`/api/admin/users/${b.id}`, 'DELETE', undefined, { cookie: a.cookie }), { id: b.id }),
        invoke(userDeleteAction as Handler, apiRequest(`/api/admin/users/${a.id}`, 'DELETE', undefined, { cookie: b.cookie }), { id: a.id }),
      ]);
      expect([first.status, second.status].filter((status) => status === 200)).toHaveLength(1);
      expect(await app.em().count(User, { isAdmin: 1 })).toBe(1);
      // The one left and a new one both delete themselves at once: one of them stays.
      const survivor = first.status === 200 ? a : b;
      const c = await signIn({ admin: true });
      const [own1, own2] = await Promise.all([
        invoke(profileAction as Handler, apiRequest('/api/profile', 'DELETE', { currentPassword: survivor.password }, { cookie: survivor.cookie })),
        invoke(profileAction as Handler, apiRequest('/api/profile', 'DELETE', { currentPassword: c.password }, { cookie: c.cookie })),
      ]);
      expect([own1.status, own2.status].sort()).toEqual([200, 403]);
      expect(await app.em().count(User, { isAdmin: 1 })).toBe(1);
    } finally {
      await app.em().nativeUpdate(User, { id: { $in: others } }, { isAdmin: 1 });
    }
  });

  it('cancels a Premium subscription first (fake Stripe API); when Stripe is unreachable nothing is deleted', async () => {
    const stripe = await startFakeStripe();
    // The key the SDK sends when the admin settings hold none (they do when the whole file runs).
    process.env.STRIPE_SECRET_KEY = STRIPE.secretKey;
    try {
      process.env.STRIPE_API_BASE = `http://127.0.0.1:${await closedPort()}`;
      const unreachable = await populatedUser({ stripeSubscriptionId: `sub_${Date.now()}a` });
      const refused = await invoke(profileAction as Handler, apiRequest('/api/profile', 'DELETE', { currentPassword: unreachable.password }, { cookie: unreachable.cookie }));
      expect(refused.status).toBe(400);
      expect((refused.body as { message: string }).message).toMatch(/Stripe.*nichts gelöscht/);
      expect(await app.em().count(User, { id: unreachable.id })).toBe(1);
      expect(await getFileStore().get(unreachable.profileKey)).not.toBeNull();

      process.env.STRIPE_API_BASE = stripe.url;
      const premium = await populatedUser({ stripeSubscriptionId: `sub_${Date.now()}b` });
      const deleted = await invoke(userDeleteAction as Handler, apiRequest(`/api/admin/users/${premium.id}`, 'DELETE', undefined, { cookie: admin.cookie }), { id: premium.id });
      expect(deleted.status).toBe(200);
      expect(stripe.requests).toContainEqual(expect.objectContaining({ method: 'DELETE', path: expect.stringMatching(/^\/v1\/subscriptions\/sub_\d+b/) }));
      expect(stripe.requests.at(-1)?.authorization).toBe(`Bearer ${STRIPE.secretKey}`);
      await gone(premium);
    } finally {
      delete process.env.STRIPE_API_BASE;
      delete process.env.STRIPE_SECRET_KEY;
      await stripe.stop();
    }
  });

  it('lets the owner download their data (nothing of others) and delete the account with the current password', async () => {
    const owner = await populatedUser();
    const stranger = await populatedUser();
    const exported = await invoke(exportLoader as Handler, apiRequest('/api/profile/export', 'GET', undefined, { cookie: owner.cookie }));
    expect(exported.status).toBe(200);
    expect(exported.headers.get('Content-Disposition')).toMatch(/^attachment; filename="druckpreis-daten-\d{4}-\d{2}-\d{2}\.json"$/);
    const body = exported.body as Record<string, unknown> & { account: Record<string, unknown>; projects: { name: string }[]; images: string[] };
    expect(body.account).toMatchObject({ id: owner.id, email: owner.email, firstName: 'Anna' });
    expect(body.projects).toHaveLength(1);
    // The stored prices are the owner's data; the backfill's bookkeeping flag is not.
    expect(body.projects[0]).toHaveProperty('minimumPriceWithVat');
    expect(body.projects[0]).not.toHaveProperty('pricesStored');
    expect(body.printers).toHaveLength(1);
    expect(body.images).toEqual([`/images/${owner.profileKey}`, `/images/${owner.productKey}`]);
    // Quotes and business details are part of it too (issue 26 §4), and only the owner's.
    expect(body).toMatchObject({ businessDetails: null, quotes: [] });
    expect(exported.text).not.toContain(stranger.id);
    expect(exported.text).not.toContain(stranger.email);
    expect(exported.text).not.toMatch(/\$2[aby]\$/);
    expect(exported.text).not.toMatch(/"password"|verificationToken|resetPasswordToken/);

    const wrong = await invoke(profileAction as Handler, apiRequest('/api/profile', 'DELETE', { currentPassword: 'falsch' }, { cookie: owner.cookie }));
    expect(wrong).toMatchObject({ status: 400, body: { code: 'INVALID_PASSWORD' } });
    expect(await app.em().count(User, { id: owner.id })).toBe(1);
    const deleted = await invoke(profileAction as Handler, apiRequest('/api/profile', 'DELETE', { currentPassword: owner.password }, { cookie: owner.cookie }));
    expect(deleted.status).toBe(200);
    expect(deleted.headers.get('Set-Cookie')).toMatch(/__session=;|Max-Age=0|Expires=Thu, 01 Jan 1970/);
    await gone(owner);
    expect(await app.em().count(User, { id: stranger.id })).toBe(1);
    expect(await app.em().count(Session, {})).toBeGreaterThan(0);
    expect(await app.em().count(AdminAuditEntry, { action: 'account.selfDelete', target: owner.email })).toBe(1);
  });
});
