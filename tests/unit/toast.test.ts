import { beforeAll, describe, expect, it } from 'vitest';

type ToastModule = typeof import('../../app/web/toast.server');
let toastModule: ToastModule;

beforeAll(async () => {
  // A configured secret, so nothing is written under DATA_DIR.
  process.env.SESSION_SECRET ??= 'test-secret-test-secret-test-secret-0123456789';
  toastModule = await import('../../app/web/toast.server');
});

/** The cookie pair a browser would send back for a Set-Cookie value. */
function cookieFrom(setCookie: string) {
  return setCookie.split(';')[0];
}

describe('toast flash cookie', () => {
  it('carries one toast through a redirect and clears it when read', async () => {
    const response = await toastModule.redirectWithToast('/profile', { type: 'success', title: 'Profil aktualisiert', description: 'Gespeichert – schön.' });
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/profile');
    const [setCookie] = response.headers.getSetCookie();
    expect(setCookie).toMatch(/^toast=/);
    expect(setCookie).toMatch(/HttpOnly/i);

    const request = new Request('http://localhost/profile', { headers: { Cookie: cookieFrom(setCookie) } });
    const { toast, headers } = await toastModule.getToast(request);
    expect(toast).toMatchObject({ type: 'success', title: 'Profil aktualisiert', description: 'Gespeichert – schön.' });
    expect(toast?.id).toBeTruthy();
    // The answer clears the cookie.
    expect(headers?.get('Set-Cookie')).toMatch(/^toast=;.*Expires=Thu, 01 Jan 1970/i);
  });

  it('keeps other Set-Cookie headers (e.g. the session) next to the toast', async () => {
    const response = await toastModule.redirectWithToast('/', { title: 'Abgemeldet' }, { headers: { 'Set-Cookie': '__session=; Max-Age=0; Path=/' } });
    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    expect(cookies[0]).toMatch(/^__session=/);
    expect(cookies[1]).toMatch(/^toast=/);
  });

  it('ignores requests without a toast and tampered cookies', async () => {
    expect(await toastModule.getToast(new Request('http://localhost/'))).toEqual({ toast: null, headers: null });
    const forged = `toast=${Buffer.from(JSON.stringify({ __flash_toast__: { id: 'x', type: 'success', title: 'Hallo', description: '' } })).toString('base64')}`;
    const { toast } = await toastModule.getToast(new Request('http://localhost/', { headers: { Cookie: forged } }));
    expect(toast).toBeNull();
  });

  it('combineHeaders appends cookies and lets later plain headers win', () => {
    const combined = toastModule.combineHeaders({ 'Set-Cookie': 'a=1', 'X-Test': 'one' }, null, { 'Set-Cookie': 'b=2', 'X-Test': 'two' });
    expect(combined.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(combined.get('X-Test')).toBe('two');
  });
});
