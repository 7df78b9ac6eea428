import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * Server-side session store for Remix's createSessionStorage. Not a
 * BaseEntity: the session id is chosen by the storage, and `expire` is all
 * the bookkeeping it needs (expired rows are purged by that index).
 */
@Entity({ tableName: 'sessions' })
export class Session {
  @PrimaryKey({ type: 'text' })
  sid!: string;

  @Property({ type: 'json' })
  sess!: Record<string, unknown>;

  @Property({ type: 'datetime' })
  @Index()
  expire!: Date;
}
