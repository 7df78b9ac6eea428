import crypto from 'node:crypto';
import { test as base, expect, type BrowserContext } from '@playwright/test';
import { createCookie } from '@remix-run/node';
import bcrypt from 'bcrypt';
import pg from 'pg';
import { E2E_DATABASE_URL, E2E_SESSION_SECRET } from './server-env';

type Options = {
  /** Start with a stored cookie choice so the consent dialog stays out of the way (default true). */
  withConsent: boolean;
};

export type SignedInUser = { id: string; email: string; password: string; firstName: string };
type Fixtures = {
  /**
   * Signs the page's browser context in as a new confirmed user, created with
   * its session directly in the database: no registration, no mail, no bcrypt
   * at the server's cost. The registration and sign-in flows keep their own
   * tests (accounts.spec.ts).
   */
  signIn: (options?: SignInOptions) => Promise<SignedInUser>;
};
export type SignInOptions = { firstName?: string; password?: string; isAdmin?: boolean; isPremium?: boolean };

/** The password of every fixture user (a real hash is stored, so the password forms work with it). */
export const FIXTURE_PASSWORD = 'Sicher-Passwort-42';

const sessionCookie = createCookie('__session', { secrets: [E2E_SESSION_SECRET], path: '/', httpOnly: true, sameSite: 'lax' });

/** Creates a confirmed user and a session row and puts the signed session cookie into `context`. */
export async function signInDirectly(
  context: BrowserContext,
  baseURL: string,
  { firstName = 'Erika', password = FIXTURE_PASSWORD, isAdmin = false, isPremium = false }: SignInOptions = {},
): Promise<SignedInUser> {
  const email = `fixture.${crypto.randomBytes(6).toString('hex')}@example.de`;
  const client = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `insert into users (email, password, email_verified, first_name, last_name, is_admin, is_premium)
       values ($1, $2, true, $3, 'Muster', $4, $5) returning id`,
      // bcrypt's lowest cost: the stored hash only has to verify, not resist guessing.
      [email, await bcrypt.hash(password, 4), firstName, isAdmin ? 1 : 0, isPremium ? 1 : 0],
    );
    const id = rows[0].id;
    const sid = crypto.randomBytes(32).toString('base64url');
    const createdAt = Date.now();
    // The same row the server's session storage writes (app/services/session.server.ts).
    await client.query('insert into sessions (sid, sess, expire) values ($1, $2, $3)', [
      sid,
      JSON.stringify({ userId: id, createdAt }),
      new Date(createdAt + 7 * 24 * 60 * 60 * 1000),
    ]);
    const header = await sessionCookie.serialize(sid);
    const value = header.slice('__session='.length, header.indexOf(';'));
    await context.addCookies([{ name: '__session', value, url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
    return { id, email, password, firstName };
  } finally {
    await client.end();
  }
}

/** The `cookie_consent` cookie as the server writes it (Remix cookie: base64 JSON). */
export function consentCookieValue(preferences = { essential: true, analytics: false, marketing: false, payment: false }) {
  const record = { preferences, date: new Date().toISOString() };
  return encodeURIComponent(Buffer.from(JSON.stringify(record), 'utf8').toString('base64'));
}

export const test = base.extend<Options & Fixtures>({
  withConsent: [true, { option: true }],
  signIn: async ({ context, baseURL }, use) => {
    await use((options) => signInDirectly(context, baseURL!, options));
  },
  context: async ({ context, withConsent, baseURL }, use) => {
    if (withConsent) {
      await context.addCookies([{ name: 'cookie_consent', value: consentCookieValue(), url: baseURL! }]);
    }
    await use(context);
  },
});

export { expect };
