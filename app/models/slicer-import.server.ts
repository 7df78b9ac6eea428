import type { EntityManager } from '@mikro-orm/postgresql';
import { calculatorPickers, toPickerItem, type PickerItem } from '~/calculator/pickers';
import type { User } from '~/entities/user.entity';
import { listPickerItems } from './library.server';
import { consumeRateLimit } from '~/services/rate-limit.server';
import { summarizeSlicerFile } from '~/services/slicer-summary.server';
import type { SlicerError, SlicerSummary, SlicerUpload } from '~/slicer/types';

export type SlicerImportResult =
  | { status: 'ok'; summary: SlicerSummary; fields: Record<string, string> }
  /** a German message exists for every code (calculator:slicer.errors.<code>) */
  | { status: 'unreadable'; error: SlicerError | { code: 'missingFile' }; fields: Record<string, string> }
  | { status: 'tooLarge' }
  | { status: 'badRequest' }
  | { status: 'rateLimited'; retryAfterSeconds: number };

/**
 * Reads the slicer file of an upload for the calculator's no-JS import and
 * `POST /api/slicer/parse`. Open to visitors, rate-limited per IP before a
 * byte of the body is read: `read` (the route's `readSlicerUpload`, app/web)
 * streams the body only once the limit let it through; the file passes
 * through (head and tail kept in memory), never stored.
 */
export async function importSlicerFile(ctx: { em: EntityManager; ip: string }, read: () => Promise<SlicerUpload>): Promise<SlicerImportResult> {
  const limit = await consumeRateLimit(ctx.em, 'slicerImport', { ip: ctx.ip });
  if (!limit.allowed) return { status: 'rateLimited', retryAfterSeconds: limit.retryAfterSeconds };
  const upload = await read();
  if (upload.status === 'tooLarge' || upload.status === 'badRequest') return upload;
  if (upload.status === 'missingFile') return { status: 'unreadable', error: { code: 'missingFile' }, fields: upload.fields };
  // Off the event loop, within a time budget: a file is a stranger's input (issue 18 §1).
  const result = await summarizeSlicerFile(upload.file);
  return result.ok
    ? { status: 'ok', summary: result.summary, fields: upload.fields }
    : { status: 'unreadable', error: result.error, fields: upload.fields };
}

/**
 * Issue 23: the signed-in seller's active library filaments as the calculator's filament
 * picker offers them, for matching the lines of a no-JS import; null for a visitor.
 */
export async function importLibraryFilaments(ctx: { em: EntityManager; user: User | null }): Promise<PickerItem[] | null> {
  if (!ctx.user) return null;
  const picker = calculatorPickers.find((entry) => entry.id === 'filament')!;
  const lists = await listPickerItems({ em: ctx.em, user: ctx.user });
  return lists.filaments.map((item) => toPickerItem(picker, item));
}
