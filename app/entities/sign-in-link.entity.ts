import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { BaseEntity } from './base.entity';
import { User } from './user.entity';

/**
 * A sign-in link mailed to an account's address (models/sign-in-links.server.ts):
 * it signs in without the password, once, within 15 minutes. Only the
 * SHA-256 of the link's token is stored. Several may be open at once (each
 * request mails a new one and leaves the older ones working), so a stranger
 * requesting links for the address never voids the owner's.
 */
@Entity({ tableName: 'sign_in_links' })
export class SignInLink extends BaseEntity {
  @ManyToOne({ entity: () => User, deleteRule: 'cascade', index: true })
  user!: User;

  @Property({ type: 'text', unique: true })
  tokenHash!: string;

  @Property({ type: 'datetime' })
  @Index()
  expiresAt!: Date;

  /** Set when the link is followed; a used link never works again. */
  @Property({ type: 'datetime', nullable: true })
  usedAt?: Opt<Date> | null = null;
}
