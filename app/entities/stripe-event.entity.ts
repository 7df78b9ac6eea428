import { BigIntType, Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/**
 * A Stripe webhook event that was applied. The row is inserted in the same
 * transaction as the event's effect (models/premium.server.ts), so a redelivered
 * event, or one delivered to two instances at once, changes things once.
 */
@Entity({ tableName: 'stripe_events' })
export class StripeEvent {
  /** Stripe's event id (evt_...). */
  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'text' })
  type!: string;

  /** The event's `created` (Unix seconds). */
  @Property({ type: new BigIntType('number') })
  created!: number;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  receivedAt: Opt<Date> = new Date();
}
