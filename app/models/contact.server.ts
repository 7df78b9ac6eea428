import type { EntityManager } from '@mikro-orm/postgresql';
import { ContactMessage, User, normalizeEmail } from '../entities';
import { enqueueMail } from '../services/mail.server';
import { getEnv } from '../lib/env.server';
import { getContactConfig, type ContactConfig } from '../services/admin-settings.server';
import type { ContactInput } from '../domain/auth-schemas';
import { consumeRateLimit } from '../services/rate-limit.server';
import type { RequestContext } from '../services/request-context.server';
import { ok, rateLimited, type Result } from '../domain/result';
import { isPremium } from '../domain/permissions';
import { getServerT } from '../i18n.server';

export type ContactResult = { ok: true; autoReply: boolean };

/** Where contact messages go, and why there. */
export type ContactRecipient = { address: string; source: 'settings' | 'env' | 'firstAdmin' };

/**
 * Who receives contact messages: the contact address of the admin settings;
 * until an admin sets one, CONTACT_EMAIL; else the first admin's address, so a
 * fresh installation never thanks a visitor for a message nobody reads. Null
 * only when there is no admin either (the message is still stored).
 */
export async function findContactRecipient(em: EntityManager, config?: ContactConfig): Promise<ContactRecipient | null> {
  const configured = (config ?? (await getContactConfig(em))).contactEmail.trim();
  if (configured) return { address: configured, source: 'settings' };
  const fromEnv = getEnv().CONTACT_EMAIL;
  if (fromEnv) return { address: fromEnv, source: 'env' };
  const admin = await em.findOne(User, { isAdmin: 1 }, { orderBy: { createdAt: 'asc', id: 'asc' }, fields: ['email'] });
  return admin ? { address: admin.email, source: 'firstAdmin' } : null;
}

/** One line for the start log: where contact mail goes right now. */
export function describeContactRecipient(recipient: ContactRecipient | null): string {
  switch (recipient?.source) {
    case 'settings':
      return `contact messages go to ${recipient.address} (contact address in the admin settings)`;
    case 'env':
      return `contact messages go to ${recipient.address} (CONTACT_EMAIL; the admin settings have no contact address)`;
    case 'firstAdmin':
      return `contact messages go to ${recipient.address} (the first admin; set CONTACT_EMAIL or the admin settings' contact address to change it)`;
    default:
      return 'contact messages reach nobody (no contact address in the admin settings, no CONTACT_EMAIL, no admin): they are only stored in contact_messages';
  }
}

/**
 * Stores a contact message, then queues the notification to the contact
 * recipient (`findContactRecipient`; Reply-To: the sender) and, when enabled, the
 * auto-reply to the sender — all in one transaction, so the message is never
 * lost and never mailed without being stored. Input is validated by
 * `contactSchema` (single-line name and subject, so no header injection); a
 * filled honeypot is the caller's business (pretend success, call nothing).
 */
export async function submitContactMessage(
  em: EntityManager,
  input: Pick<ContactInput, 'name' | 'email' | 'subject' | 'message'>,
  ip: string | null,
  { premium = false }: { premium?: boolean } = {},
): Promise<ContactResult> {
  const config = await getContactConfig(em);
  // Priority support (spec §1): whoever reads the message sees it came from a Premium user.
  const mailSubject = premium ? `${(await getServerT('premium'))('contactPrefix')} ${input.subject.trim()}` : input.subject.trim();
  const email = normalizeEmail(input.email);
  // Without a recipient nobody reads the message: no auto-reply promising an answer within 24 hours then.
  const recipient = await findContactRecipient(em, config);
  const autoReply = config.enabled && recipient !== null;
  await em.transactional(async (tx) => {
    tx.create(ContactMessage, {
      name: input.name.trim(),
      email,
      subject: input.subject.trim(),
      message: input.message.trim(),
      ip: ip && ip !== 'unknown' ? ip : null,
      isPremium: premium,
    });
    // The row is written first; the mails only leave after the commit (outbox worker).
    await tx.flush();
    if (recipient) {
      await enqueueMail(tx, {
        to: recipient.address,
        template: 'contactNotification',
        replyTo: email,
        data: { name: input.name.trim(), email, subject: mailSubject, message: input.message.trim() },
      });
    } else {
      console.warn('[contact] no contact address (admin settings, CONTACT_EMAIL) and no admin: the message is stored but nobody is notified');
    }
    if (autoReply) {
      await enqueueMail(tx, { to: email, template: 'contactAutoReply', data: {} });
    }
  });
  return { ok: true, autoReply };
}

/**
 * The contact operation behind /kontakt and POST /api/contact: rate limit per
 * IP and sender address, then `submitContactMessage`.
 */
export async function sendContactMessage(
  ctx: RequestContext,
  input: Pick<ContactInput, 'name' | 'email' | 'subject' | 'message'>,
): Promise<Result<ContactResult>> {
  const limit = await consumeRateLimit(ctx.em, 'contact', { ip: ctx.ip, email: input.email });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  return ok(await submitContactMessage(ctx.em, input, ctx.ip, { premium: isPremium(ctx.user, ctx.now) }));
}

/**
 * Says in the log where contact messages go (entry.server calls it once when
 * a server starts), so an operator sees at once when they would reach nobody.
 * Never throws: a log line must not stop the server.
 */
export async function logContactRecipient(em: EntityManager): Promise<void> {
  try {
    const recipient = await findContactRecipient(em);
    const line = `[contact] ${describeContactRecipient(recipient)}`;
    if (recipient) console.log(line);
    else console.warn(line);
  } catch (error) {
    console.warn(`[contact] could not tell where contact messages go: ${error instanceof Error ? error.message : error}`);
  }
}
