import type { EntityManager } from '@mikro-orm/postgresql';
import { ContactMessage, normalizeEmail } from '../entities';
import { enqueueMail } from '../services/mail.server';
import { getContactConfig } from '../services/admin-settings.server';
import type { ContactInput } from './auth-schemas';
import { consumeRateLimit } from '../services/rate-limit.server';
import type { RequestContext } from '../services/request-context.server';
import { ok, rateLimited, type Result } from './result';

export type ContactResult = { ok: true; autoReply: boolean };

/**
 * Stores a contact message, then queues the notification to
 * `contact_config.contactEmail` (Reply-To: the sender) and, when enabled, the
 * auto-reply to the sender — all in one transaction, so the message is never
 * lost and never mailed without being stored. Input is validated by
 * `contactSchema` (single-line name and subject, so no header injection); a
 * filled honeypot is the caller's business (pretend success, call nothing).
 */
export async function submitContactMessage(
  em: EntityManager,
  input: Pick<ContactInput, 'name' | 'email' | 'subject' | 'message'>,
  ip: string | null,
): Promise<ContactResult> {
  const config = await getContactConfig(em);
  const email = normalizeEmail(input.email);
  const autoReply = config.enabled;
  await em.transactional(async (tx) => {
    tx.create(ContactMessage, {
      name: input.name.trim(),
      email,
      subject: input.subject.trim(),
      message: input.message.trim(),
      ip: ip && ip !== 'unknown' ? ip : null,
    });
    // The row is written first; the mails only leave after the commit (outbox worker).
    await tx.flush();
    const recipient = config.contactEmail.trim();
    if (recipient) {
      await enqueueMail(tx, {
        to: recipient,
        template: 'contactNotification',
        replyTo: email,
        data: { name: input.name.trim(), email, subject: input.subject.trim(), message: input.message.trim() },
      });
    } else {
      console.warn('[contact] contact_config.contactEmail is not set; the message is stored but nobody is notified');
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
  return ok(await submitContactMessage(ctx.em, input, ctx.ip));
}
