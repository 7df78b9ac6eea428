import { BeforeCreate, BeforeUpdate, BigIntType, Entity, Index, Property, Unique, type Hidden, type Opt } from '@mikro-orm/core';
import { BaseEntity, flagColumn } from './base.entity';

@Entity({ tableName: 'users' })
// The admin's user search (case-insensitive substring on address and names) is served by one trigram index
// over the same expression the query uses (app/models/admin-users.server.ts); the list is newest first, by
// (createdAt, id) descending, which one index serves in order (a page is read from it without sorting).
@Index({
  name: 'users_search_trgm_index',
  expression: `create index "users_search_trgm_index" on "users" using gin ((lower("email" || ' ' || coalesce("first_name", '') || ' ' || coalesce("last_name", ''))) gin_trgm_ops)`,
})
@Index({
  name: 'users_created_at_id_index',
  expression: 'create index "users_created_at_id_index" on "users" ("created_at" desc, "id" desc)',
})
export class User extends BaseEntity {
  /**
   * Stored lower-cased (and trimmed): addresses compare case-insensitively in
   * practice, so the plain unique constraint must see one spelling per
   * mailbox. The hooks below normalise on every write; look users up with
   * `normalizeEmail(input)` too.
   */
  @Property({ type: 'text' })
  @Unique()
  email!: string;

  /** bcrypt hash. Hidden: never serialised. Lazy: load it explicitly (`populate: ['password']`) where it is checked. */
  @Property({ type: 'text', hidden: true, lazy: true })
  password!: Hidden<string>;

  @Property({ type: 'boolean', default: false })
  emailVerified: Opt<boolean> = false;

  /**
   * SHA-256 of the confirmation link's token. While `verificationExpires` is
   * set it is pending; once used the hash stays with the expiry cleared, so
   * a second click on the link can say "already confirmed".
   */
  @Property({ type: 'text', nullable: true, hidden: true })
  verificationToken?: string | null;

  /** When the pending confirmation token stops working (24 h after it was issued); null once used. */
  @Property({ type: 'datetime', nullable: true, hidden: true })
  verificationExpires?: Date | null;

  @Property({ type: 'text', nullable: true, hidden: true })
  resetPasswordToken?: string | null;

  /**
   * The last successful sign-in (password or link), set in the database by the sign-in itself
   * (models/accounts.server.ts recordSignIn); null until the first, which is greeted
   * 'Willkommen, …!' rather than 'Willkommen zurück, …!' (issue 24 §2).
   */
  @Property({ type: 'datetime', nullable: true, hidden: true })
  lastSignInAt?: Date | null;

  @Property({ type: 'datetime', nullable: true, hidden: true })
  resetPasswordExpires?: Date | null;

  /**
   * A new address waiting for confirmation. The stored `email` stays the one
   * that signs in until the link sent here is followed (a typo never locks
   * anyone out); `pendingEmailToken` is that link's SHA-256.
   */
  @Property({ type: 'text', nullable: true })
  pendingEmail?: string | null;

  @Property({ type: 'text', nullable: true, hidden: true })
  pendingEmailToken?: string | null;

  @Property({ type: 'datetime', nullable: true, hidden: true })
  pendingEmailExpires?: Date | null;

  @Property({ type: 'text', nullable: true })
  firstName?: string | null;

  @Property({ type: 'text', nullable: true })
  lastName?: string | null;

  @Property({ type: 'text', nullable: true })
  profileImageUrl?: string | null;

  @Property({ type: 'text', nullable: true })
  @Unique()
  stripeCustomerId?: string | null;

  @Property({ type: 'text', nullable: true })
  @Unique()
  stripeSubscriptionId?: string | null;

  @Property(flagColumn(0))
  isPremium: Opt<number> = 0;

  @Property(flagColumn(0))
  isAdmin: Opt<number> = 0;

  /** Stripe subscription status (active, past_due, canceled, ...); null when never subscribed. */
  @Property({ type: 'text', nullable: true })
  subscriptionStatus?: string | null;

  /** End of the paid period of the current subscription (its item's current_period_end); null when unknown. */
  @Property({ type: 'datetime', nullable: true })
  subscriptionPeriodEnd?: Date | null;

  /** The subscription ends at the end of the paid period (cancelled, still running). */
  @Property({ type: 'boolean', default: false })
  subscriptionCancelAtPeriodEnd: Opt<boolean> = false;

  /**
   * Unix seconds of the Stripe state last applied (an event's `created`, or the time of a
   * server-side read): an older event that arrives late never overrides it.
   */
  @Property({ type: new BigIntType('number'), nullable: true, hidden: true })
  subscriptionStateAt?: number | null;

  @BeforeCreate()
  @BeforeUpdate()
  protected normalizeEmailBeforeWrite() {
    this.email = normalizeEmail(this.email);
  }
}

/** The one spelling of an address that is stored and looked up. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
