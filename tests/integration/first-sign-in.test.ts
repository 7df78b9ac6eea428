import { describe, expect, it } from 'vitest';
import { User } from '../../app/entities';
import { recordSignIn } from '../../app/models/users.server';
import { action as authPageAction } from '../../app/routes/_auth+/auth';
import { action as apiLoginAction } from '../../app/routes/api+/auth.login';
import { APP_URL, apiRequest, call, createUser, randomIp, useAuthTestApp } from '../setup/auth-app';

/**
 * Issue 24 §2: 'Willkommen zurück, …!' was shown on the very first sign-in.
 * The first sign-in of an account is told apart by `users.last_sign_in_at`,
 * set by the sign-in itself in the shared database.
 */
const app = useAuthTestApp('firstsignin');

/** The toast a response's flash cookie carries (a signed Remix cookie: base64 JSON before the dot). */
function toastOf(response: Response): { title: string; description: string } {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('toast='));
  if (!cookie) throw new Error('no toast cookie');
  const value = decodeURIComponent(cookie.slice('toast='.length, cookie.indexOf(';')));
  const session = JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf('.')), 'base64').toString('utf8')) as Record<string, unknown>;
  const flash = Object.entries(session).find(([key]) => key.startsWith('__flash_'))?.[1] as { title: string; description: string };
  return flash;
}

async function signInThroughPage(email: string, password: string): Promise<Response> {
  const request = new Request(`${APP_URL}/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'x-druckpreis-client-ip': randomIp() },
    body: new URLSearchParams({ intent: 'login', email, password }),
  });
  return call(authPageAction, request);
}

describe('the first sign-in', () => {
  it('is greeted as a first visit, every later one as a return', async () => {
    const { email, password } = await createUser(app.orm, { firstName: 'Frieda' });
    const first = await signInThroughPage(email, password);
    expect(first.status).toBe(302);
    expect(toastOf(first).description).toBe('Willkommen bei Druckpreis, Frieda!');
    const second = await signInThroughPage(email, password);
    expect(toastOf(second).description).toBe('Willkommen zurück, Frieda!');
    const stored = await app.em().findOneOrFail(User, { email });
    expect(stored.lastSignInAt).toBeInstanceOf(Date);
  });

  it('counts a sign-in through the JSON API too, so the page greets the next one as a return', async () => {
    const { email, password } = await createUser(app.orm, { firstName: 'Greta' });
    const api = await call(apiLoginAction, apiRequest('/api/auth/login', 'POST', { email, password }, { ip: randomIp() }));
    expect(api.status).toBe(200);
    expect(toastOf(await signInThroughPage(email, password)).description).toBe('Willkommen zurück, Greta!');
  });

  it('a wrong password marks nothing', async () => {
    const { email, password } = await createUser(app.orm, { firstName: 'Hedi' });
    const wrong = await call(apiLoginAction, apiRequest('/api/auth/login', 'POST', { email, password: 'Falsches-Passwort-9' }, { ip: randomIp() }));
    expect(wrong.status).toBe(401);
    expect(toastOf(await signInThroughPage(email, password)).description).toBe('Willkommen bei Druckpreis, Hedi!');
  });

  it('of several at once (several instances on one database), exactly one is the first', async () => {
    const { user } = await createUser(app.orm);
    const results = await Promise.all(Array.from({ length: 6 }, () => recordSignIn(app.orm.em.fork(), user)));
    expect(results.filter((result) => result.firstSignIn)).toHaveLength(1);
  });
});
