import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * One fixed-window counter per `bucket:key` (e.g. `login:ip:203.0.113.7`).
 * Kept in PostgreSQL so every app instance shares the counts; written only by
 * the atomic upsert in app/services/rate-limit.server.ts. Rows past
 * `expiresAt` are dead and purged through that index.
 */
@Entity({ tableName: 'rate_limits' })
export class RateLimit {
  @PrimaryKey({ type: 'text' })
  key!: string;

  @Property({ type: 'datetime' })
  windowStart!: Date;

  @Property({ type: 'integer' })
  count!: number;

  @Property({ type: 'datetime' })
  @Index()
  expiresAt!: Date;
}
