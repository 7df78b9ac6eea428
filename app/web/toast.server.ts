import crypto from 'node:crypto';
import { createCookieSessionStorage, redirect, type SessionStorage } from '@remix-run/node';
import { getOrCreateSecret } from '../services/secrets.server';
import { getEnv } from '../lib/env.server';
import { TOAST_COOKIE_NAME } from '../lib/cookie-names';

/**
 * Toasts travel in a flash cookie: an action sets it (usually with its
 * redirect), the root loader reads and clears it on the next request and the
 * root renders it — so a toast shows with JavaScript switched off too.
 * Title and description are already-translated German text (at most one toast).
 */
export type ToastType = 'success' | 'error';
/** A link button in the toast (spec §8: 'Premium upgraden' to /premium); `href` is a local path. */
export type ToastAction = { label: string; href: string };
/**
 * `section`: the id of the page section the redirect opens at (`/profile#geschaeftsdaten`). Without scripts the
 * browser scrolls there, out of sight of the toast at the top, so that section shows the message instead
 * (components/section-status.tsx) and the toast stays hidden; with scripts the toast shows as always.
 */
export type ToastInput = { type?: ToastType; title: string; description?: string; action?: ToastAction; section?: string };
export type Toast = { id: string; type: ToastType; title: string; description: string; action?: ToastAction; section?: string };

const TOAST_KEY = 'toast';

let storage: SessionStorage | undefined;

function getToastStorage(): SessionStorage {
  if (storage) return storage;
  const env = getEnv();
  const fromEnv = env.SESSION_SECRET?.split(',')
    .map((secret) => secret.trim())
    .filter(Boolean);
  storage = createCookieSessionStorage({
    cookie: {
      name: TOAST_COOKIE_NAME,
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: env.NODE_ENV === 'production' && !env.APP_URL?.startsWith('http://'),
      // Signed so nobody can plant a message that looks like ours.
      secrets: fromEnv && fromEnv.length > 0 ? fromEnv : [getOrCreateSecret('toast')],
    },
  });
  return storage;
}

function normalize(input: ToastInput): Toast {
  return {
    id: crypto.randomBytes(6).toString('base64url'),
    type: input.type ?? 'success',
    title: input.title,
    description: input.description ?? '',
    ...(input.action ? { action: input.action } : {}),
    ...(input.section ? { section: input.section } : {}),
  };
}

/** The Set-Cookie value that carries this toast to the next request. */
export async function createToastHeaders(input: ToastInput): Promise<Headers> {
  const toastStorage = getToastStorage();
  const session = await toastStorage.getSession();
  session.flash(TOAST_KEY, normalize(input));
  return new Headers({ 'Set-Cookie': await toastStorage.commitSession(session) });
}

/** Merges several header sets; Set-Cookie values are appended, never replaced. */
export function combineHeaders(...sets: Array<HeadersInit | null | undefined>): Headers {
  const combined = new Headers();
  for (const set of sets) {
    if (!set) continue;
    new Headers(set).forEach((value, name) => {
      if (name.toLowerCase() === 'set-cookie') return;
      combined.set(name, value);
    });
    for (const cookie of new Headers(set).getSetCookie()) combined.append('Set-Cookie', cookie);
  }
  return combined;
}

/** A redirect that shows a toast on the page it leads to. */
export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit): Promise<Response> {
  return redirect(url, { ...init, headers: combineHeaders(init?.headers, await createToastHeaders(toast)) });
}

/** The pending toast (or null) and the headers that clear it; call once per request (root loader). */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const cookieHeader = request.headers.get('Cookie');
  if (!cookieHeader || !/(?:^|;\s*)toast=/.test(cookieHeader)) return { toast: null, headers: null };
  const toastStorage = getToastStorage();
  const session = await toastStorage.getSession(cookieHeader);
  const value: unknown = session.get(TOAST_KEY);
  const headers = new Headers({ 'Set-Cookie': await toastStorage.destroySession(session) });
  return { toast: isToast(value) ? value : null, headers };
}

function isToast(value: unknown): value is Toast {
  if (!value || typeof value !== 'object') return false;
  const toast = value as Record<string, unknown>;
  return (
    typeof toast.id === 'string' &&
    (toast.type === 'success' || toast.type === 'error') &&
    typeof toast.title === 'string' &&
    typeof toast.description === 'string' &&
    (toast.action === undefined || isLocalAction(toast.action)) &&
    (toast.section === undefined || (typeof toast.section === 'string' && /^[a-z0-9-]{1,40}$/.test(toast.section)))
  );
}

// Signed cookie or not, a toast only ever links inside the app.
function isLocalAction(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const { label, href } = value as Record<string, unknown>;
  return typeof label === 'string' && typeof href === 'string' && href.startsWith('/') && !href.startsWith('//') && !href.includes('\\');
}
