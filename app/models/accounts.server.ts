import { AsyncLocalStorage } from 'node:async_hooks';
import { Authenticator } from 'remix-auth';
import { FormStrategy } from 'remix-auth-form';
import { normalizeEmail } from '../entities';
import { runAfterAnswer } from '../services/background.server';
import type { DeviceToken } from '../services/device-cookie.server';
import { clearSignInLimits, consumeRateLimit, deviceCounterKey, settleRateLimit, type RateLimitAction, type RateLimitKeys } from '../services/rate-limit.server';
import type { RequestContext } from '../services/request-context.server';
import type { ForgotPasswordInput, LoginInput, RegisterInput, ResetPasswordInput } from '../domain/auth-schemas';
import { fieldErrors, forbidden, invalid, ok, rateLimited, unauthorized, type Failure, type Result } from '../domain/result';
import {
  authenticate,
  confirmEmail,
  isResetTokenUsable,
  registerUser,
  requestPasswordReset,
  resendVerification,
  recordSignIn,
  resetPassword,
  type AuthenticateResult,
  type SignedIn,
} from './users.server';

/**
 * Account operations (`(ctx, input) => Result`), shared by the /auth,
 * /forgot-password, /reset-password and /verify-email pages and the /api/auth/* routes. Rate limits live here and
 * nowhere else; the routes parse, call, and hand the result to an adapter
 * (web/result-response.server.ts).
 */

const LOGIN_STRATEGY = 'form';

/**
 * Sign-in with remix-auth's FormStrategy. The verify function checks the
 * password through the users model and answers with its result (ok /
 * unverified / invalid) instead of throwing, so "not yet confirmed" (403) and
 * "wrong" (401) stay apart.
 */
// remix-auth 4 hands the verify function only (a copy of) the request: the context's EntityManager travels beside it.
const attemptEm = new AsyncLocalStorage<RequestContext['em']>();

const authenticator = new Authenticator<AuthenticateResult>().use(
  new FormStrategy<AuthenticateResult>(async ({ form }) => {
    const em = attemptEm.getStore();
    if (!em) throw new Error('authenticator: use login(ctx, input)');
    const email = String(form.get('email') ?? '');
    const password = String(form.get('password') ?? '');
    return authenticate(em, email, password);
  }),
  LOGIN_STRATEGY,
);

/**
 * One sign-in attempt: rate limit first, then the FormStrategy. Does not
 * create the session: the caller issues one on ok (and a new device cookie).
 *
 * Where the attempt counts (docs/sign-in-protection.md): with a valid device
 * cookie for the account named by `email` (`devices`, read by the route from
 * the signed cookie), in that cookie's own bucket only (`loginDevice`), so no
 * failure from elsewhere stops a browser the owner signed in with before;
 * otherwise per (IP, address), per IP and against the address-wide ceiling
 * (`login`), as before.
 */
export async function login(
  ctx: RequestContext,
  input: Pick<LoginInput, 'email' | 'password'> & { devices?: DeviceToken[] },
): Promise<Result<SignedIn>> {
  const device = await knownDevice(ctx, input.email, input.devices ?? []);
  const action: RateLimitAction = device ? 'loginDevice' : 'login';
  const keys: RateLimitKeys = device ? { ip: ctx.ip, device: deviceCounterKey(device.userId, device.nonce) } : { ip: ctx.ip, email: input.email };
  const limit = await consumeRateLimit(ctx.em, action, keys);
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);

  // The strategy reads a form body; pages and the JSON API hand over their validated fields as one.
  const formRequest = new Request('http://local.invalid/auth', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: input.email, password: input.password }),
  });
  const result = await attemptEm.run(ctx.em, () => authenticator.authenticate(LOGIN_STRATEGY, formRequest));
  // Only wrong passwords count against the address (rate-limit-config.server.ts).
  if (result.status !== 'invalid') await settleRateLimit(ctx.em, action, keys, 'success');
  if (result.status === 'ok') return ok(await recordSignIn(ctx.em, result.user));
  if (result.status === 'unverified') return forbidden('auth:messages.emailNotVerified', { emailNotVerified: true });
  return unauthorized('auth:messages.loginInvalid');
}

/**
 * The device cookie entry for the account of `email`, if the browser has one.
 * Only a browser holding a cookie we signed gets here, so the lookup tells a
 * stranger nothing.
 */
async function knownDevice(ctx: RequestContext, email: string, devices: DeviceToken[]): Promise<DeviceToken | null> {
  if (devices.length === 0) return null;
  const rows: { id: string }[] = await ctx.em.execute('select id from users where email = ? limit 1', [normalizeEmail(email)]);
  const userId = rows[0]?.id?.toLowerCase();
  return (userId && devices.find((device) => device.userId === userId)) || null;
}

/** Registration; the same answer whether or not the address already has an account (its owner gets a mail). */
export async function register(ctx: RequestContext, input: RegisterInput): Promise<Result<undefined>> {
  const keys = { ip: ctx.ip, email: input.email };
  const limit = await consumeRateLimit(ctx.em, 'register', keys);
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  const result = await registerUser(ctx.em, input);
  if (!result.ok) {
    // Only registrations that went through count (rate-limit-config.server.ts).
    await settleRateLimit(ctx.em, 'register', keys, 'failure');
    return fieldErrors(result.errors);
  }
  return ok();
}

/**
 * A reset link for an address. The answer is decided before any per-account
 * work and the mail is prepared after the answer (`runAfterAnswer`), so
 * neither the answer nor its timing tells whether the address has an
 * account. Limits of the address itself answer ok too (nothing is mailed);
 * only a client over its own IP limit is told to wait.
 */
export async function forgotPassword(ctx: RequestContext, input: ForgotPasswordInput): Promise<Result<undefined>> {
  const limit = await consumeRateLimit(ctx.em, 'forgotPassword', { ip: ctx.ip, email: input.email });
  if (!limit.allowed) return limit.refusedScopes.includes('ip') ? rateLimited(limit.retryAfterSeconds) : ok();
  const work = ctx.em.fork();
  runAfterAnswer('forgot-password', () => requestPasswordReset(work, input.email));
  return ok();
}

/** A new confirmation link; the same answer whether the address is unknown, confirmed or waiting. */
export async function resendVerificationEmail(ctx: RequestContext, input: ForgotPasswordInput): Promise<Result<undefined>> {
  const limit = await consumeRateLimit(ctx.em, 'resendVerification', { ip: ctx.ip, email: input.email });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  await resendVerification(ctx.em, input.email);
  return ok();
}

/**
 * A reset link that does not work (missing, unknown, expired or used): the
 * request as a whole is refused, there is no field to fix. Routes whose schema
 * finds no token answer with the same failure.
 */
export function invalidResetLink(): Failure {
  return invalid('auth:messages.resetInvalid');
}

/** A reset link's state when its page opens: a used or expired link shows the invalid-link message at once. */
export async function resetLinkState(ctx: RequestContext, token: string): Promise<'form' | 'invalid'> {
  return token && (await isResetTokenUsable(ctx.em, token)) ? 'form' : 'invalid';
}

/**
 * A new password from a reset link (once, within 1 h); every session of the
 * account ends (users.server.ts `resetPassword`) and every sign-in limit of
 * the account is cleared (the new password works at once, wherever strangers
 * guessed from). A weak password is a field error on `password`.
 */
export async function resetPasswordWithToken(ctx: RequestContext, input: Pick<ResetPasswordInput, 'token' | 'password'>): Promise<Result<undefined>> {
  const result = await resetPassword(ctx.em, input.token, input.password);
  if (result.ok) {
    await clearSignInLimits(ctx.em, { email: result.email, userId: result.userId });
    return ok();
  }
  if (result.reason === 'weakPassword') return fieldErrors(result.errors);
  return invalidResetLink();
}

/** The reason of `verifyEmail`'s refusal of a link used before whose address is confirmed. */
export const EMAIL_ALREADY_CONFIRMED = 'auth:messages.verifyAlreadyConfirmed';

/**
 * Confirms the address behind the link in the mail (once, within 24 h). A link
 * used before is still refused, with the reason that helps when its address is
 * confirmed (`EMAIL_ALREADY_CONFIRMED`: sign in); the page shows that one as
 * good news.
 */
export async function verifyEmail(ctx: RequestContext, input: { token: string | null | undefined }): Promise<Result<{ change: boolean }>> {
  const token = input.token?.trim();
  if (!token) return invalid('auth:messages.verifyTokenMissing');
  const result = await confirmEmail(ctx.em, token);
  if (result.ok) return ok({ change: result.change });
  return invalid(result.reason === 'alreadyConfirmed' ? EMAIL_ALREADY_CONFIRMED : 'auth:messages.verifyFailed');
}
