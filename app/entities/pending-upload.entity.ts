import { Entity, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** What a pending upload is: a profile picture's raw upload, or a product image not yet saved with a project. */
export const PENDING_UPLOAD_KINDS = ['profile', 'product'] as const;
export type PendingUploadKind = (typeof PENDING_UPLOAD_KINDS)[number];

/**
 * A stored object that nothing keeps yet. Its object is deleted by the
 * cleanup job once `expiresAt` has passed (app/services/upload-cleanup.server.ts).
 *
 * - `profile`: an upload address that was handed out; completing the upload
 *   deletes the row. Lives 15 minutes.
 * - `product`: a checked, re-encoded product image; the project save that
 *   accepts it deletes the row in the same transaction as the project write.
 *   Lives a day.
 *
 * The open rows of one user and kind are that kind's upload quota.
 */
@Entity({ tableName: 'pending_uploads' })
export class PendingUpload {
  @PrimaryKey({ type: 'text' })
  key!: string;

  @Property({ type: 'uuid' })
  @Index()
  userId!: string;

  @Property({ type: 'text', default: 'profile' })
  kind: Opt<PendingUploadKind> = 'profile';

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt?: Date;

  @Property({ type: 'datetime' })
  @Index()
  expiresAt!: Date;
}
