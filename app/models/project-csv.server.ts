import { filamentTotals } from '../calculator/fields';
import { getServerT } from '../i18n.server';
import { CSV_BOM, csvDate, csvDecimal, csvHours, csvLine, csvMoney } from '../lib/csv';
import { ok, rateLimited, type Result } from '../domain/result';
import { consumeRateLimit } from '../services/rate-limit.server';
import type { UserContext } from '../services/request-context.server';
import { listedPrices, projectEngineInput, projectFilamentLines, projectItemBatches, type ProjectListItem, type ProjectPrices } from './projects.server';

/**
 * `GET /projects.csv` (issue 24 §4): the signed-in seller's projects, one row each, with
 * the saved inputs and the minimum prices, as German CSV for a spreadsheet. Only the
 * user's own projects (the list query is scoped by owner).
 */

/** The columns in file order; the header texts are `project-tools:csv.columns.<key>`. */
const COLUMNS: ReadonlyArray<[key: string, cell: (project: ProjectListItem, row: Row) => string | number]> = [
  ['name', (p) => p.name],
  ['quantity', (p) => p.quantity],
  ['filamentWeight', (_p, row) => csvDecimal(row.filament.grams)],
  ['filamentPricePerKg', (_p, row) => csvMoney(row.filament.pricePerKg)],
  ['printTime', (p) => csvHours(p.printTime)],
  ['printerWattage', (p) => csvDecimal(p.printerWattage)],
  ['electricityRate', (p) => csvDecimal(p.electricityRate)],
  ['printerCost', (p) => csvMoney(p.printerCost)],
  ['printerLifetimeHours', (p) => csvDecimal(p.printerLifetimeHours)],
  ['failureRate', (_p, row) => csvDecimal(row.input.failureRate ?? 0)],
  ['packagingCost', (p) => csvMoney(p.packagingCost)],
  ['shippingCost', (p) => csvMoney(p.shippingCost)],
  ['marketplacePlatform', (p) => p.marketplacePlatform ?? ''],
  ['marketplaceFeePercentage', (p) => csvDecimal(p.marketplaceFeePercentage)],
  ['marketplaceFeeFixed', (p) => csvMoney(p.marketplaceFeeFixed)],
  ['preparationTime', (p) => csvDecimal(p.preparationTime)],
  ['postProcessingTime', (p) => csvDecimal(p.postProcessingTime)],
  ['hourlyRate', (p) => csvMoney(p.hourlyRate)],
  ['profitMargin', (p) => csvDecimal(p.profitMargin)],
  ['vatPercent', (p) => csvDecimal(p.vatPercent)],
  ['smallBusiness', (_p, row) => row.yesNo(row.input.smallBusiness === true)],
  ['targetPrice', (p) => (p.targetPrice > 0 ? csvMoney(p.targetPrice) : '')],
  // The stored figures (written with every save): no price possible leaves the cells empty.
  ['totalCosts', (_p, row) => csvMoney(row.prices.totalCosts)],
  ['minimumPrice', (_p, row) => csvMoney(row.prices.minimumPrice)],
  ['minimumPriceWithVat', (_p, row) => csvMoney(row.prices.minimumPriceWithVat)],
  ['updatedAt', (p) => csvDate(p.updatedAt)],
];

type Row = {
  input: ReturnType<typeof projectEngineInput>;
  filament: { grams: number; pricePerKg: number };
  prices: ProjectPrices;
  yesNo: (value: boolean) => string;
};

/** Test hooks: the size of the SQL batches and a count of them. */
export type CsvExportOptions = { batchSize?: number; onBatch?: (size: number) => void };

/**
 * The file as a stream: the header row at once, then one keyset-ordered batch of projects
 * (models/projects.server.ts `projectItemBatches`) at a time, read only when the client has
 * taken the previous one. No engine runs: the prices are the stored ones.
 */
export async function exportProjectsCsv(ctx: UserContext, options: CsvExportOptions = {}): Promise<Result<{ body: ReadableStream<Uint8Array>; filename: string }>> {
  // Each export reads every project: capped per user (`projectCsvExport`, domain/limits.ts).
  const limit = await consumeRateLimit(ctx.em, 'projectCsvExport', { ip: ctx.ip, email: `user:${ctx.user.id}` });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  const t = await getServerT('project-tools');
  const yesNo = (value: boolean) => (value ? t('csv.yes') : t('csv.no'));
  const line = (project: ProjectListItem) => {
    const input = projectEngineInput(project);
    const row: Row = { input, filament: filamentTotals(projectFilamentLines(project)), prices: listedPrices(project), yesNo };
    return csvLine(COLUMNS.map(([, cell]) => cell(project, row)));
  };
  const header = CSV_BOM + csvLine(COLUMNS.map(([key]) => t(`csv.columns.${key}`)));
  const batches = projectItemBatches(ctx, options);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(header));
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value.map(line).join('')));
      } catch (error) {
        // The status has gone out: the download breaks off instead of ending as if complete.
        console.error('[projects.csv] export failed', error);
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return ok({ body, filename: `${t('csv.filePrefix')}-${ctx.now.toISOString().slice(0, 10)}.csv` });
}
