import crypto from 'node:crypto';
import bcrypt from 'bcrypt';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { User, normalizeEmail } from '../entities';
import { getEmailConfig } from '../services/admin-settings.server';
import { enqueueMail } from '../services/mail.server';
import { consumeRateLimit } from '../services/rate-limit.server';
import { deleteUserSessions } from '../services/session.server';
import { getAppUrl, getEnv } from '../lib/env.server';
import { authErrorKeys, PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH, utf8ByteLength } from '../domain/auth-schemas';
import { COMMON_PASSWORDS } from './common-passwords';
import type { FieldErrors } from '../domain/result';

/**
 * Accounts: registration, e-mail confirmation, sign-in, password reset,
 * profile. Every function takes the request's EntityManager; routes call the
 * operations built on them (accounts.server.ts, profile.server.ts). Answers that
 * could reveal whether an address has an account (register, resend, forgot
 * password) are the same either way; what differs is only the mail sent.
 *
 * Tokens (confirmation, reset) are 32 random bytes, base64url in the link;
 * only their SHA-256 hex is stored. Confirmation links last 24 h, reset links
 * 1 h; both work once.
 *
 * E-mail change policy: a new address must be confirmed before it counts.
 * `updateProfile` keeps it as `pendingEmail` and mails a link to it; the
 * current address keeps signing in (a typo never locks anyone out), is told
 * about the change and can cancel it. Following the link makes the new address
 * the account's and voids every older link (reset, confirmation), so a reset
 * link only ever confirms the address it was sent to.
 */

const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;
const RESET_TTL_MS = 60 * 60 * 1000;

/** The bcrypt cost of new hashes: BCRYPT_COST (12 by default, at least 10 in production; tests use 4). */
export function bcryptCost(): number {
  return getEnv().BCRYPT_COST;
}

let dummyHash: { cost: number; hash: Promise<string> } | undefined;
/**
 * bcrypt hash (at the configured cost) of a random password nobody knows.
 * Unknown addresses are compared against it, so they cost the same time as a
 * wrong password.
 */
function getDummyHash(): Promise<string> {
  const cost = bcryptCost();
  if (dummyHash?.cost !== cost) dummyHash = { cost, hash: bcrypt.hash(crypto.randomBytes(24).toString('base64'), cost) };
  return dummyHash.hash;
}

const commonPasswords = new Set(COMMON_PASSWORDS);

// ---------------------------------------------------------------------------
// Helpers

/** A successful sign-in as the pages greet it: the account, and whether this was its very first sign-in. */
export type SignedIn = { user: User; firstSignIn: boolean };

/**
 * Notes a successful sign-in (password or link) and tells whether it was the
 * account's first (issue 24 §2: no 'Willkommen zurück' then). One statement
 * whose row lock orders concurrent sign-ins, so two instances signing the same
 * account in at once cannot both call theirs the first.
 */
export async function recordSignIn(em: EntityManager, user: User): Promise<SignedIn> {
  const rows: { previous: Date | string | null }[] = await em.execute(
    `update users set last_sign_in_at = now()
       from (select id, last_sign_in_at as previous from users where id = ? for update) as before
      where users.id = before.id
      returning before.previous`,
    [user.id],
  );
  return { user, firstSignIn: rows.length > 0 && rows[0].previous === null };
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A fresh token for a link and the hash that is stored. */
function createToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** Only tokens shaped like ours are looked up (43 base64url characters). */
function isWellFormedToken(token: unknown): token is string {
  return typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token);
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, bcryptCost());
}

/** The rules for a new password; returns an i18n key or null. */
export function checkNewPassword(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return authErrorKeys.passwordMin;
  if (utf8ByteLength(password) > PASSWORD_MAX_BYTES) return authErrorKeys.passwordTooLong;
  if (commonPasswords.has(password.toLowerCase())) return authErrorKeys.passwordTooCommon;
  return null;
}

/**
 * Base URL of links in mails: `verificationUrl` from the e-mail settings when
 * set, else APP_URL — never the request's Host header.
 */
async function getLinkBaseUrl(em: EntityManager): Promise<string> {
  const configured = (await getEmailConfig(em)).verificationUrl?.trim();
  const base = configured || getAppUrl();
  // Accept a setting that already names the confirmation page.
  return base.replace(/\/+$/, '').replace(/\/verify-email$/, '');
}

function displayName(user: Pick<User, 'firstName' | 'email'>): string {
  return user.firstName?.trim() || user.email;
}

function findByEmail(em: EntityManager, email: string, withPassword = false) {
  return em.findOne(User, { email: normalizeEmail(email) }, withPassword ? { populate: ['password'] } : {});
}

async function issueVerification(em: EntityManager, user: User): Promise<void> {
  const { token, hash } = createToken();
  user.verificationToken = hash;
  user.verificationExpires = new Date(Date.now() + VERIFICATION_TTL_MS);
  const link = `${await getLinkBaseUrl(em)}/verify-email?token=${token}`;
  await enqueueMail(em, {
    to: user.email,
    template: 'verifyEmail',
    data: { name: displayName(user), firstName: user.firstName ?? '', email: user.email, link },
  });
}

// ---------------------------------------------------------------------------
// Registration and confirmation

type RegisterResult = { ok: true } | { ok: false; errors: FieldErrors };

/**
 * Creates an unconfirmed account and queues the confirmation mail in the same
 * transaction. An address that already has an account gets the same answer;
 * its owner receives an "account exists" mail instead (and the stored
 * account is not touched).
 */
export async function registerUser(
  em: EntityManager,
  input: { email: string; password: string; firstName: string; lastName: string },
): Promise<RegisterResult> {
  const passwordError = checkNewPassword(input.password);
  if (passwordError) return { ok: false, errors: { password: [passwordError] } };

  const email = normalizeEmail(input.email);
  // Hash before looking anything up, so both paths take the same time.
  const passwordHash = await hashPassword(input.password);

  try {
    await em.transactional(async (tx) => {
      const existing = await tx.findOne(User, { email });
      if (existing) {
        await mailAccountExists(tx, existing);
        return;
      }
      const user = tx.create(User, {
        email,
        password: passwordHash,
        firstName: input.firstName.trim(),
        lastName: input.lastName.trim(),
        emailVerified: false,
      });
      await issueVerification(tx, user);
    });
  } catch (error) {
    // Two registrations of one address at once: the second behaves like "exists".
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    await em.transactional(async (tx) => {
      const existing = await tx.findOne(User, { email });
      if (existing) await mailAccountExists(tx, existing);
    });
  }
  return { ok: true };
}

async function mailAccountExists(em: EntityManager, user: User) {
  const base = await getLinkBaseUrl(em);
  await enqueueMail(em, {
    to: user.email,
    template: 'accountExists',
    data: {
      name: displayName(user),
      firstName: user.firstName ?? '',
      email: user.email,
      signInLink: `${base}/auth`,
      resetLink: `${base}/forgot-password`,
    },
  });
}

/** `change`: the link confirmed a new address for an existing account, not a registration. */
type ConfirmEmailResult = { ok: true; change: boolean } | { ok: false; reason: 'invalid' | 'alreadyConfirmed' };

/**
 * Confirms the address behind a link. Works once, within 24 h.
 *
 * A used link's hash stays in `verificationToken` with `verificationExpires`
 * cleared, so a second click can say "bereits bestätigt – Sie können sich
 * anmelden" instead of "ungültig". Only someone holding the link learns that,
 * and only while the account is confirmed; a new link (resend, e-mail change)
 * or a password reset replaces the hash.
 */
export async function confirmEmail(em: EntityManager, token: unknown): Promise<ConfirmEmailResult> {
  if (!isWellFormedToken(token)) return { ok: false, reason: 'invalid' };
  const hash = hashToken(token);
  if (await confirmPendingEmail(em, hash)) return { ok: true, change: true };
  // One conditional update: the token is consumed atomically (the expiry is what makes it usable), so it works exactly once.
  const updated = await em.nativeUpdate(
    User,
    { verificationToken: hash, verificationExpires: { $gt: new Date() } },
    { emailVerified: true, verificationExpires: null, updatedAt: new Date() },
  );
  if (updated === 1) return { ok: true, change: false };
  const used = await em.count(User, { verificationToken: hash, verificationExpires: null, emailVerified: true });
  return { ok: false, reason: used > 0 ? 'alreadyConfirmed' : 'invalid' };
}

/** Sends a new confirmation link when the address has an unconfirmed account; silent otherwise. */
export async function resendVerification(em: EntityManager, email: string): Promise<void> {
  await em.transactional(async (tx) => {
    const user = await tx.findOne(User, { email: normalizeEmail(email) });
    if (!user || user.emailVerified) return;
    await issueVerification(tx, user);
  });
}

// ---------------------------------------------------------------------------
// Sign-in

export type AuthenticateResult =
  | { status: 'ok'; user: User }
  | { status: 'unverified'; user: User }
  | { status: 'invalid' };

/**
 * Checks an address and password. Unknown addresses are compared against a
 * dummy hash, so they take as long as a wrong password. Only a correct
 * password reveals that the address is still unconfirmed.
 */
export async function authenticate(em: EntityManager, email: string, password: string): Promise<AuthenticateResult> {
  const user = await findByEmail(em, email, true);
  const hash = user?.password ?? (await getDummyHash());
  const matches = await bcrypt.compare(password, hash);
  if (!user || !matches) return { status: 'invalid' };
  if (!user.emailVerified) return { status: 'unverified', user };
  return { status: 'ok', user };
}

// ---------------------------------------------------------------------------
// Password reset

/** Mails a reset link (1 h) when the address has an account; the caller's answer is the same either way. */
export async function requestPasswordReset(em: EntityManager, email: string): Promise<void> {
  await em.transactional(async (tx) => {
    const user = await tx.findOne(User, { email: normalizeEmail(email) });
    if (!user) return;
    const { token, hash } = createToken();
    user.resetPasswordToken = hash;
    user.resetPasswordExpires = new Date(Date.now() + RESET_TTL_MS);
    const link = `${await getLinkBaseUrl(em)}/reset-password?token=${token}`;
    await enqueueMail(tx, {
      to: user.email,
      template: 'resetPassword',
      data: { name: displayName(user), firstName: user.firstName ?? '', email: user.email, link },
    });
  });
}

type ResetPasswordResult =
  | { ok: true; userId: string; email: string }
  | { ok: false; reason: 'invalidToken' }
  | { ok: false; reason: 'weakPassword'; errors: FieldErrors };

/** Whether a reset link still works (known, unused, within its hour): the page says so before the form is filled. */
export async function isResetTokenUsable(em: EntityManager, token: unknown): Promise<boolean> {
  if (!isWellFormedToken(token)) return false;
  const count = await em.count(User, { resetPasswordToken: hashToken(token), resetPasswordExpires: { $gt: new Date() } });
  return count > 0;
}

/**
 * Sets a new password from a reset link (once, within 1 h) and ends all of the
 * user's sessions. Following the link proves control of the mailbox, so an
 * unconfirmed address counts as confirmed afterwards (this also defeats an
 * account someone else pre-registered with that address).
 */
export async function resetPassword(em: EntityManager, token: unknown, password: string): Promise<ResetPasswordResult> {
  const passwordError = checkNewPassword(password);
  if (passwordError) return { ok: false, reason: 'weakPassword', errors: { password: [passwordError] } };
  if (!isWellFormedToken(token)) return { ok: false, reason: 'invalidToken' };

  const hash = hashToken(token);
  const valid = { resetPasswordToken: hash, resetPasswordExpires: { $gt: new Date() } };
  const user = await em.findOne(User, valid);
  if (!user) return { ok: false, reason: 'invalidToken' };
  const passwordHash = await hashPassword(password);

  return em.transactional(async (tx) => {
    // Conditional on the token still being there: a second use (or a race) changes nothing.
    const updated = await tx.nativeUpdate(
      User,
      { id: user.id, ...valid },
      {
        password: passwordHash,
        resetPasswordToken: null,
        resetPasswordExpires: null,
        emailVerified: true,
        verificationToken: null,
        verificationExpires: null,
        updatedAt: new Date(),
      },
    );
    if (updated !== 1) return { ok: false as const, reason: 'invalidToken' as const };
    await deleteUserSessions(tx, user.id);
    return { ok: true as const, userId: user.id, email: user.email };
  });
}

// ---------------------------------------------------------------------------
// Profile

export type UpdateProfileResult =
  | { ok: true; user: User; emailChanged: boolean }
  | { ok: false; errors: FieldErrors }
  | { ok: false; rateLimited: true; retryAfterSeconds: number };

/**
 * Saves name and address. A new address is only *pending* (see the policy
 * above): it is mailed a confirmation link, the current address is told, and
 * the account keeps signing in with the current address until the link is
 * followed. The answer is the same whether or not the new address already
 * belongs to another account — that account's owner gets a "someone tried to
 * use your address" mail instead — and address changes are rate-limited.
 */
export async function updateProfile(
  em: EntityManager,
  user: User,
  input: { firstName: string; lastName: string; email: string },
  options: { ip?: string } = {},
): Promise<UpdateProfileResult> {
  const email = normalizeEmail(input.email);
  const emailChanged = email !== user.email && email !== user.pendingEmail;

  if (emailChanged) {
    // Keyed by the account (not the typed address): one account cannot mail many strangers.
    const limit = await consumeRateLimit(em, 'changeEmail', { ip: options.ip ?? 'unknown', email: `user:${user.id}` });
    if (!limit.allowed) return { ok: false, rateLimited: true, retryAfterSeconds: limit.retryAfterSeconds };
  }

  await em.transactional(async (tx) => {
    const managed = await tx.findOneOrFail(User, { id: user.id });
    managed.firstName = input.firstName.trim();
    managed.lastName = input.lastName.trim();
    if (email === managed.email && managed.pendingEmail) {
      // Typing the current address again withdraws a pending change.
      clearPendingEmail(managed);
    }
    if (!emailChanged) return;
    const owner = await tx.findOne(User, { email, id: { $ne: user.id } });
    const base = await getLinkBaseUrl(tx);
    // The account looks the same either way: the address is pending and the current address is told.
    // Only a free address is mailed a link; a taken one can therefore never be confirmed.
    const { token, hash } = createToken();
    managed.pendingEmail = email;
    managed.pendingEmailToken = owner ? null : hash;
    managed.pendingEmailExpires = new Date(Date.now() + VERIFICATION_TTL_MS);
    // Links issued for the old address must not outlive the change.
    managed.resetPasswordToken = null;
    managed.resetPasswordExpires = null;
    if (owner) {
      await enqueueMail(tx, {
        to: owner.email,
        template: 'emailInUse',
        data: { name: displayName(owner), profileLink: `${base}/profile` },
      });
    } else {
      await enqueueMail(tx, {
        to: email,
        template: 'confirmNewEmail',
        data: { name: displayName(managed), newEmail: email, link: `${base}/verify-email?token=${token}` },
      });
    }
    await enqueueMail(tx, {
      to: managed.email,
      template: 'emailChangeRequested',
      data: { name: displayName(managed), newEmail: email, profileLink: `${base}/profile` },
    });
  });
  const fresh = await em.fork().findOneOrFail(User, { id: user.id });
  return { ok: true, user: fresh, emailChanged };
}

function clearPendingEmail(user: User) {
  user.pendingEmail = null;
  user.pendingEmailToken = null;
  user.pendingEmailExpires = null;
}

/** Withdraws a pending address change (the link mailed to it stops working). */
export async function cancelEmailChange(em: EntityManager, user: User): Promise<{ ok: true; user: User }> {
  await em.nativeUpdate(
    User,
    { id: user.id },
    { pendingEmail: null, pendingEmailToken: null, pendingEmailExpires: null, updatedAt: new Date() },
  );
  return { ok: true, user: await em.fork().findOneOrFail(User, { id: user.id }) };
}

/**
 * Follows a confirmation link sent to a pending new address: the address
 * becomes the account's, and every link issued before (reset, confirmation)
 * stops working. False when the link is unknown, expired, or the address was
 * taken meanwhile.
 */
async function confirmPendingEmail(em: EntityManager, tokenHash: string): Promise<boolean> {
  try {
    return await em.transactional(async (tx) => {
      const user = await tx.findOne(User, { pendingEmailToken: tokenHash, pendingEmailExpires: { $gt: new Date() } });
      if (!user?.pendingEmail) return false;
      const updated = await tx.nativeUpdate(
        User,
        { id: user.id, pendingEmailToken: tokenHash },
        {
          email: normalizeEmail(user.pendingEmail),
          emailVerified: true,
          pendingEmail: null,
          pendingEmailToken: null,
          pendingEmailExpires: null,
          verificationToken: null,
          verificationExpires: null,
          resetPasswordToken: null,
          resetPasswordExpires: null,
          updatedAt: new Date(),
        },
      );
      return updated === 1;
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) return false;
    throw error;
  }
}

type ChangePasswordResult =
  | { ok: true }
  | { ok: false; code: 'INVALID_PASSWORD' }
  | { ok: false; code: 'WEAK_PASSWORD'; errors: FieldErrors };

/**
 * Changes the password after checking the current one, and ends the user's
 * other sessions (`keepSessionId`: the session making the change stays).
 */
export async function changePassword(
  em: EntityManager,
  user: User,
  currentPassword: string,
  newPassword: string,
  options: { keepSessionId?: string | null } = {},
): Promise<ChangePasswordResult> {
  const stored = await em.fork().findOne(User, { id: user.id }, { populate: ['password'] });
  const matches = await bcrypt.compare(currentPassword, stored?.password ?? (await getDummyHash()));
  if (!stored || !matches) return { ok: false, code: 'INVALID_PASSWORD' };
  const passwordError = checkNewPassword(newPassword);
  if (passwordError) return { ok: false, code: 'WEAK_PASSWORD', errors: { newPassword: [passwordError] } };

  const passwordHash = await hashPassword(newPassword);
  await em.transactional(async (tx) => {
    await tx.nativeUpdate(
      User,
      { id: user.id },
      { password: passwordHash, resetPasswordToken: null, resetPasswordExpires: null, updatedAt: new Date() },
    );
    await deleteUserSessions(tx, user.id, options.keepSessionId ?? null);
  });
  return { ok: true };
}

// ---------------------------------------------------------------------------
// What the client sees

export type PublicUser = {
  id: string;
  email: string;
  emailVerified: boolean;
  /** A new address waiting for its confirmation (the current one still signs in). */
  pendingEmail: string | null;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  isPremium: number;
  isAdmin: number;
  subscriptionStatus: string | null;
  createdAt: string;
};

/** The user object of the JSON API and the root loader: never the password or a token. */
export function toPublicUser(user: User): PublicUser {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    pendingEmail: user.pendingEmail ?? null,
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    profileImageUrl: user.profileImageUrl ?? null,
    isPremium: user.isPremium,
    isAdmin: user.isAdmin,
    subscriptionStatus: user.subscriptionStatus ?? null,
    createdAt: user.createdAt.toISOString(),
  };
}
