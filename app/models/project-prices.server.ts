import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../entities';
import { plainRowTable } from '../services/plain-rows.server';
import { queryPrepared } from '../services/prepared-query.server';
import { INPUT_PROPERTIES, listItem, PROJECT_BATCH_SIZE, projectPricesOrNone, type ProjectPrices } from './projects.server';

/**
 * The stored figures of projects saved before they were stored (security review: the list's
 * price order and the CSV read them from SQL). Run at every start right after the migrations
 * (scripts/lib/migrate.ts, under the migration lock), not inside a migration: the migrations
 * ship as single compiled files (scripts/build-production-scripts.ts) that cannot import the
 * engine, and pricing must be the engine's to the cent. Rows without stored figures are found
 * by a partial index, so a start with nothing to do costs one empty index read.
 *
 * In batches by id, one UPDATE per batch; `updated_at` stays (the list's "last change" order is
 * the seller's, not ours). A row the engine refuses (a hand-edited value out of range) is stored
 * without a price rather than stopping the start. Returns the number of rows priced.
 */
export async function storeMissingProjectPrices(
  em: EntityManager,
  { batchSize = PROJECT_BATCH_SIZE, onBatch }: { batchSize?: number; onBatch?: (size: number) => void } = {},
): Promise<number> {
  const table = plainRowTable(em, Project);
  const stored = table.column('pricesStored');
  let total = 0;
  // Keyset by id: the priced rows stay in the partial index as dead entries until a vacuum,
  // and a scan from the start each time would step over all of them again.
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await table.select(INPUT_PROPERTIES, `where not ${stored} and ${table.column('id')} > ? order by ${table.column('id')} limit ?`, [after, batchSize]);
    if (rows.length === 0) return total;
    after = rows[rows.length - 1].id as string;
    const prices = rows.map((row) => projectPricesOrNone(listItem(row)));
    // Four array parameters, one statement text (prepared once), whatever the batch size.
    const doubles = (pick: (p: ProjectPrices) => number | null) => `{${prices.map((p) => (pick(p) === null ? 'NULL' : String(pick(p)))).join(',')}}`;
    await queryPrepared(
      em,
      `update ${table.table} p set ${table.column('totalCosts')} = v.total, ${table.column('minimumPrice')} = v.net,
         ${table.column('minimumPriceWithVat')} = v.gross, ${stored} = true
       from unnest(?::uuid[], ?::float8[], ?::float8[], ?::float8[]) as v(id, total, net, gross) where p.${table.column('id')} = v.id and not p.${stored}`,
      [`{${rows.map((row) => row.id as string).join(',')}}`, doubles((p) => p.totalCosts), doubles((p) => p.minimumPrice), doubles((p) => p.minimumPriceWithVat)],
    );
    total += rows.length;
    onBatch?.(rows.length);
    // A long backfill leaves the event loop free between batches.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
