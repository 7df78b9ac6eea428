import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizeEmail, SignInLink, User } from '../entities';
import { getEmailConfig } from '../services/admin-settings.server';
import { runAfterAnswer } from '../services/background.server';
import { enqueueMail } from '../services/mail.server';
import { consumeRateLimit } from '../services/rate-limit.server';
import type { RequestContext } from '../services/request-context.server';
import { getAppUrl } from '../lib/env.server';
import { hashToken, recordSignIn, type SignedIn } from './users.server';
import { invalid, ok, rateLimited, type Result } from '../domain/result';

/**
 * Sign-in by mail link (docs/sign-in-protection.md): the way in for the owner
 * of a mailbox whose sign-in is locked by strangers' guesses, from a browser
 * without a device cookie. A link signs in without the password, once, within
 * 15 minutes; only its token's SHA-256 is stored; it is mailed through the
 * outbox in the transaction that stores it.
 *
 * Requesting one answers the same whether or not the address has an account,
 * and the mail is prepared after the answer (as forgot password), so neither
 * the answer nor its timing tells. Limits: 20 an hour per IP (429) and 5 per
 * 15 minutes per address (same answer, nothing mailed; the links mailed in
 * those 15 minutes all still work, so a stranger cannot leave the owner
 * without one). Only confirmed accounts get a link: for an unconfirmed one,
 * whoever registered it may know its password (the reset link confirms it).
 */
export const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const SIGN_IN_LINK_INVALID = 'signin:messages.linkInvalid';

/** Asks for a link to `email`; ok whether or not anything is mailed, 429 only when this IP is over its limit. */
export async function requestSignInLink(ctx: RequestContext, input: { email: string }): Promise<Result<undefined>> {
  const limit = await consumeRateLimit(ctx.em, 'loginLink', { ip: ctx.ip, email: input.email });
  if (!limit.allowed) return limit.refusedScopes.includes('ip') ? rateLimited(limit.retryAfterSeconds) : ok();
  const work = ctx.em.fork();
  runAfterAnswer('sign-in-link', () => mailSignInLink(work, input.email));
  return ok();
}

/** Stores a link for a confirmed account and queues its mail, in one transaction; silent for any other address. */
export async function mailSignInLink(em: EntityManager, email: string): Promise<void> {
  await em.transactional(async (tx) => {
    const user = await tx.findOne(User, { email: normalizeEmail(email) });
    if (!user || !user.emailVerified) return;
    // Links past their time are of no use to anyone; keep the table small.
    await tx.nativeDelete(SignInLink, { expiresAt: { $lt: new Date(Date.now() - 24 * 60 * 60 * 1000) } });
    const token = crypto.randomBytes(32).toString('base64url');
    tx.create(SignInLink, { user, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + SIGN_IN_LINK_TTL_MS) });
    const configured = (await getEmailConfig(tx)).verificationUrl?.trim();
    const base = (configured || getAppUrl()).replace(/\/+$/, '').replace(/\/verify-email$/, '');
    await enqueueMail(tx, {
      to: user.email,
      template: 'signInLink',
      data: { name: user.firstName?.trim() || user.email, link: `${base}/auth/link?token=${token}` },
    });
  });
}

function isWellFormed(token: unknown): token is string {
  return typeof token === 'string' && TOKEN_PATTERN.test(token);
}

/**
 * Whether a link would still sign in (the page shows its button only then);
 * it is not used up by looking. The answer names nothing but the address the
 * link was mailed to, which its holder read it in.
 */
export async function checkSignInLink(ctx: RequestContext, input: { token: unknown }): Promise<Result<{ email: string }>> {
  if (!isWellFormed(input.token)) return invalid(SIGN_IN_LINK_INVALID);
  const link = await ctx.em.findOne(
    SignInLink,
    { tokenHash: hashToken(input.token), usedAt: null, expiresAt: { $gt: new Date() } },
    { populate: ['user'] },
  );
  if (!link || !link.user.emailVerified) return invalid(SIGN_IN_LINK_INVALID);
  return ok({ email: link.user.email });
}

/**
 * Follows a link: the user it was mailed to, once. One conditional update uses
 * the link up, so two clicks at once sign in once. The caller issues the
 * session and the device cookie.
 */
export async function signInWithLink(ctx: RequestContext, input: { token: unknown }): Promise<Result<SignedIn>> {
  if (!isWellFormed(input.token)) return invalid(SIGN_IN_LINK_INVALID);
  const rows: { user_id: string }[] = await ctx.em.execute(
    `update sign_in_links set used_at = now(), updated_at = now()
      where token_hash = ? and used_at is null and expires_at > now()
      returning user_id`,
    [hashToken(input.token)],
  );
  const userId = rows[0]?.user_id;
  if (!userId) return invalid(SIGN_IN_LINK_INVALID);
  const user = await ctx.em.findOne(User, { id: userId });
  if (!user || !user.emailVerified) return invalid(SIGN_IN_LINK_INVALID);
  return ok(await recordSignIn(ctx.em, user));
}
