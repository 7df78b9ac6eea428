import { Entity, ManyToOne, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { User } from './user.entity';

/**
 * The last quote number handed out per seller and year. Written only by one
 * `insert … on conflict do update … returning` in models/quotes.server.ts, in
 * the transaction that saves the quote: parallel saves queue on the row lock
 * and each gets its own number; a deleted draft's number is never handed out
 * again (the counter never goes down), so numbers may have gaps but never repeat.
 */
@Entity({ tableName: 'quote_counters' })
export class QuoteCounter {
  [PrimaryKeyProp]?: ['user', 'year'];

  @ManyToOne({ entity: () => User, primary: true, deleteRule: 'cascade' })
  user!: User;

  @PrimaryKey({ type: 'integer' })
  year!: number;

  @Property({ type: 'integer' })
  lastNumber!: number;
}
