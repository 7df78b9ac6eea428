import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * An upload address that was handed out and not yet completed. Its object
 * (raw, unchecked bytes) is deleted by the cleanup job once `expiresAt` has
 * passed (app/services/upload-cleanup.server.ts); completing the upload
 * deletes the row. The rows per user are the upload quota.
 */
@Entity({ tableName: 'pending_uploads' })
export class PendingUpload {
  @PrimaryKey({ type: 'text' })
  key!: string;

  @Property({ type: 'uuid' })
  @Index()
  userId!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt?: Date;

  @Property({ type: 'datetime' })
  @Index()
  expiresAt!: Date;
}
