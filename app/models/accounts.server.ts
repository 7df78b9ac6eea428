import { AsyncLocalStorage } from 'node:async_hooks';
import { Authenticator } from 'remix-auth';
import { FormStrategy } from 'remix-auth-form';
import type { User } from '../entities';
import { consumeRateLimit } from '../services/rate-limit.server';
import type { RequestContext } from '../services/request-context.server';
import type { ForgotPasswordInput, LoginInput, RegisterInput } from './auth-schemas';
import { fieldErrors, forbidden, ok, rateLimited, unauthorized, type Result } from './result';
import { authenticate, registerUser, requestPasswordReset, resendVerification, type AuthenticateResult } from './users.server';

/**
 * Account operations (`(ctx, input) => Result`), shared by the /auth,
 * /forgot-password pages and the /api/auth/* routes. Rate limits live here and
 * nowhere else; the routes parse, call, and hand the result to an adapter
 * (utils/result-response.server.ts).
 */

export const LOGIN_STRATEGY = 'form';

/**
 * Sign-in with remix-auth's FormStrategy. The verify function checks the
 * password through the users model and answers with its result (ok /
 * unverified / invalid) instead of throwing, so "not yet confirmed" (403) and
 * "wrong" (401) stay apart.
 */
// remix-auth 4 hands the verify function only (a copy of) the request: the context's EntityManager travels beside it.
const attemptEm = new AsyncLocalStorage<RequestContext['em']>();

export const authenticator = new Authenticator<AuthenticateResult>().use(
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
 * One sign-in attempt: rate limit per IP and address first, then the
 * FormStrategy. Does not create the session: the caller issues one on ok.
 */
export async function login(ctx: RequestContext, input: Pick<LoginInput, 'email' | 'password'>): Promise<Result<User>> {
  const limit = await consumeRateLimit(ctx.em, 'login', { ip: ctx.ip, email: input.email });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);

  // The strategy reads a form body; pages and the JSON API hand over their validated fields as one.
  const formRequest = new Request('http://local.invalid/auth', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: input.email, password: input.password }),
  });
  const result = await attemptEm.run(ctx.em, () => authenticator.authenticate(LOGIN_STRATEGY, formRequest));
  if (result.status === 'ok') return ok(result.user);
  if (result.status === 'unverified') return forbidden('auth:messages.emailNotVerified', { emailNotVerified: true });
  return unauthorized('auth:messages.loginInvalid');
}

/** Registration; the same answer whether or not the address already has an account (its owner gets a mail). */
export async function register(ctx: RequestContext, input: RegisterInput): Promise<Result<undefined>> {
  const limit = await consumeRateLimit(ctx.em, 'register', { ip: ctx.ip, email: input.email });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  const result = await registerUser(ctx.em, input);
  if (!result.ok) return fieldErrors(result.errors);
  return ok();
}

/** A reset link for an address; the same answer whether or not it has an account. */
export async function forgotPassword(ctx: RequestContext, input: ForgotPasswordInput): Promise<Result<undefined>> {
  const limit = await consumeRateLimit(ctx.em, 'forgotPassword', { ip: ctx.ip, email: input.email });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  await requestPasswordReset(ctx.em, input.email);
  return ok();
}

/** A new confirmation link; the same answer whether the address is unknown, confirmed or waiting. */
export async function resendVerificationEmail(ctx: RequestContext, input: ForgotPasswordInput): Promise<Result<undefined>> {
  const limit = await consumeRateLimit(ctx.em, 'resendVerification', { ip: ctx.ip, email: input.email });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  await resendVerification(ctx.em, input.email);
  return ok();
}
