import { Entity, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/**
 * One line of the admin audit log: who changed which settings group, ran a
 * test, or deleted which account, and when. `details` never holds a secret
 * value (only field names and addresses). Not a foreign key to the actor:
 * the entry outlives a deleted admin, so the actor's address is copied.
 */
@Entity({ tableName: 'admin_audit_log' })
export class AdminAuditEntry {
  @PrimaryKey({ type: 'uuid', defaultRaw: 'gen_random_uuid()' })
  id: Opt<string> = crypto.randomUUID();

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  @Index()
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'uuid', nullable: true })
  actorId?: string | null;

  @Property({ type: 'text' })
  actorEmail!: string;

  /** settings.save, settings.smtpTest, settings.testMail, user.delete, account.selfDelete */
  @Property({ type: 'text' })
  action!: string;

  /** The settings group or the deleted account's address. */
  @Property({ type: 'text', nullable: true })
  target?: string | null;

  @Property({ type: 'json', default: '{}' })
  details: Opt<Record<string, unknown>> = {};
}
