/**
 * `PROJECTS=100000 node --expose-gc node_modules/vite-node/vite-node.mjs scripts/measure-project-prices.ts` (vite-node: the CSV's texts load through Vite's import.meta.glob): time of
 * `/projects?sort=price` (first and a far page, both directions) and of the whole
 * `/projects.csv` for one seller with that many projects, called on the models as the routes
 * do, with the longest event-loop stall and the heap growth of each. Uses its own embedded
 * PostgreSQL (EMBEDDED_POSTGRES_PORT, default 5499; data under DATA_DIR or a temp dir, removed
 * after). Written for the security review of the price order (docs/project-list-tools.md has
 * the figures); works on the code before the stored prices too, for the comparison.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { MikroORM } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../mikro-orm.config';
import { User } from '../app/entities';
import { startEmbeddedPostgres } from './lib/embedded-postgres';
import { runMigrations } from './lib/migrate';

const COUNT = Number(process.env.PROJECTS ?? 100_000);
const port = Number(process.env.EMBEDDED_POSTGRES_PORT ?? 5499);
const dataDir = fs.mkdtempSync(path.join(process.env.DATA_DIR ?? os.tmpdir(), 'measure-prices-'));
// initdb runs as the 'postgres' user when this runs as root.
fs.chmodSync(dataDir, 0o777);

const db = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), port, database: 'druckpreis', persistent: false });
process.env.DATABASE_URL = db.url;
process.env.DATA_DIR = dataDir;
process.env.MAIL_WORKER = 'off';
try {
  await runMigrations(db.url);
  const orm = await MikroORM.init(createOrmConfig(db.url));
  const em = orm.em.fork();
  const user = em.create(User, { email: 'viele@example.de', password: 'x', emailVerified: true, isPremium: 1 } as never) as User;
  await em.flush();
  await em.getConnection().execute(
    `insert into projects (user_id, name, quantity, filament_weight, filament_price_per_kg, print_time, printer_wattage, electricity_rate,
       preparation_time, post_processing_time, hourly_rate, packaging_cost, shipping_cost, marketplace_fee_percentage, profit_margin, target_price,
       created_at, updated_at)
     select ?, 'Vase Nr. ' || g, 1 + g % 10, 25 + g % 500, 25, 3.5 + (g % 7) / 3.0, 200, 0.32, 15, 10, 15, 0.5, 4.95, 5, 25, 0,
       now() - g * interval '1 minute', now() - g * interval '1 minute'
     from generate_series(1, ?::int) g`,
    [user.id, COUNT],
  );
  await em.getConnection().execute('analyze projects');

  const figures: Array<[string, string]> = [];
  const measure = async <T>(label: string, fn: () => Promise<T>, runs = 3): Promise<T> => {
    let result!: T;
    const times: number[] = [];
    let stall = 0;
    let heap = 0;
    for (let i = 0; i < runs; i += 1) {
      global.gc?.();
      const heapBefore = process.memoryUsage().heapUsed;
      let heapPeak = heapBefore;
      const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 5);
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      const start = performance.now();
      result = await fn();
      times.push(performance.now() - start);
      delay.disable();
      clearInterval(sampler);
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      stall = Math.max(stall, delay.max / 1e6);
      heap = Math.max(heap, heapPeak - heapBefore);
    }
    times.sort((a, b) => a - b);
    figures.push([label, `median ${times[Math.floor(times.length / 2)].toFixed(0)} ms (of ${runs}), longest event-loop stall ${stall.toFixed(0)} ms, heap growth ≤ ${(heap / 1e6).toFixed(0)} MB`]);
    return result;
  };

  // The start's one-off pricing of rows without stored prices (only in the new code).
  const backfill = await import('../app/models/project-prices.server').catch(() => null);
  if (backfill) await measure(`backfill of ${COUNT} projects (once, at start)`, () => backfill.storeMissingProjectPrices(orm.em.fork()), 1);

  const { listProjects } = await import('../app/models/projects.server');
  const { exportProjectsCsv } = await import('../app/models/project-csv.server');
  const ctx = () => ({ em: orm.em.fork(), user, ip: '127.0.0.1', now: new Date(), hasSession: true, privateResponse: true }) as never;
  for (const sort of ['price', 'price-desc'] as const) {
    const first = await measure(`/projects?sort=${sort} page 1`, () => listProjects(ctx(), { sort }));
    await measure(`/projects?sort=${sort} page 2000`, () => listProjects(ctx(), { sort, page: 2000 }));
    if (first.items.length === 0) throw new Error('no projects listed');
  }
  await measure('/projects (sort=changed) page 1, for comparison', () => listProjects(ctx(), {}));
  let bytes = 0;
  await measure('/projects.csv, whole file read', async () => {
    const result = (await exportProjectsCsv(ctx())) as { kind: string; value: { body: string | ReadableStream<Uint8Array> } };
    if (result.kind !== 'ok') throw new Error(`csv: ${result.kind}`);
    const { body } = result.value;
    if (typeof body === 'string') return (bytes = Buffer.byteLength(body));
    bytes = 0;
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
    return bytes;
  });
  console.log(`${COUNT} projects of one seller; CSV ${(bytes / 1e6).toFixed(1)} MB`);
  for (const [label, text] of figures) console.log(`- ${label}: ${text}`);
  await orm.close(true);
} finally {
  await db.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
