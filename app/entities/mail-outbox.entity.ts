import { Entity, Index, Property, type Opt } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';

export const MAIL_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** An attachment as stored: the bytes base64-encoded. */
export type MailAttachment = { filename: string; contentType: string; contentBase64: string };

/**
 * A mail waiting to be sent (transactional outbox). The row is written in the
 * same transaction as the change that caused it and sent later by the worker
 * in app/services/mail.server.ts, so a rolled-back change never mails and a
 * committed one is never lost. Subject and bodies are rendered at enqueue
 * time; the bodies are blanked once sent (they can hold one-time links).
 */
@Entity({ tableName: 'mail_outbox' })
@Index({ properties: ['status', 'nextAttemptAt'] })
export class MailOutbox extends BaseEntity {
  @Property({ type: 'text' })
  to!: string;

  @Property({ type: 'text', nullable: true })
  replyTo?: string | null;

  @Property({ type: 'text' })
  subject!: string;

  @Property({ type: 'text' })
  html!: string;

  @Property({ type: 'text' })
  text!: string;

  /** Which template rendered it (MailTemplate), for the logs and the admin. */
  @Property({ type: 'text' })
  template!: string;

  /** pending → sending (claimed by one worker) → sent | pending (retry) | failed (gave up). */
  @Property({ type: 'text', default: 'pending' })
  status: Opt<MailStatus> = 'pending';

  @Property({ type: 'integer', default: 0 })
  attempts: Opt<number> = 0;

  /** When the row is next due; while 'sending' it is the end of the claim (a crashed worker's row comes back then). */
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  nextAttemptAt: Opt<Date> = new Date();

  @Property({ type: 'text', nullable: true })
  lastError?: string | null;

  /**
   * Files sent with the mail (a quote's PDF), stored in the row so a retry
   * or another instance sends the same bytes; blanked with the bodies once sent.
   */
  @Property({ type: 'json', nullable: true })
  attachments?: MailAttachment[] | null;

  @Property({ type: 'datetime', nullable: true })
  sentAt?: Date | null;
}
