import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/**
 * A message sent through the contact form. Stored before anything is mailed,
 * so a mail failure never loses it. Not owned by a user (visitors write too).
 */
@Entity({ tableName: 'contact_messages' })
export class ContactMessage {
  @PrimaryKey({ type: 'uuid', defaultRaw: 'gen_random_uuid()' })
  id: Opt<string> = crypto.randomUUID();

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  email!: string;

  @Property({ type: 'text' })
  subject!: string;

  @Property({ type: 'text' })
  message!: string;

  /** Sender's IP address as the server saw it (abuse handling). */
  @Property({ type: 'text', nullable: true })
  ip?: string | null;

  /** Sent by a signed-in Premium user: priority support (spec §1). */
  @Property({ type: 'boolean', default: false })
  isPremium: Opt<boolean> = false;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Opt<Date> = new Date();
}
