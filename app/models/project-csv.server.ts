import { calculate } from '../calculator/engine';
import { filamentTotals } from '../calculator/fields';
import { getServerT } from '../i18n.server';
import { csvDecimal, csvDocument, csvMoney } from '../lib/csv';
import { mapInBatches } from '../lib/batches';
import { ok, rateLimited, type Result } from '../domain/result';
import { consumeRateLimit } from '../services/rate-limit.server';
import type { UserContext } from '../services/request-context.server';
import { listAllProjectItems, projectEngineInput, projectFilamentLines, type ProjectListItem } from './projects.server';

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
  ['printTime', (p) => csvDecimal(p.printTime)],
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
  ['totalCosts', (_p, row) => csvMoney(row.result?.totalCosts ?? null)],
  ['minimumPrice', (_p, row) => csvMoney(row.result?.minimumPrice ?? null)],
  ['minimumPriceWithVat', (_p, row) => csvMoney(row.result?.minimumPriceWithVat ?? null)],
  ['updatedAt', (p) => p.updatedAt.toISOString().slice(0, 10)],
];

type Row = {
  input: ReturnType<typeof projectEngineInput>;
  filament: { grams: number; pricePerKg: number };
  result: { totalCosts: number; minimumPrice: number; minimumPriceWithVat: number } | null;
  yesNo: (value: boolean) => string;
};

export async function exportProjectsCsv(ctx: UserContext): Promise<Result<{ body: string; filename: string }>> {
  // Each export prices every project: capped per user (`projectCsvExport`, domain/limits.ts).
  const limit = await consumeRateLimit(ctx.em, 'projectCsvExport', { ip: ctx.ip, email: `user:${ctx.user.id}` });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  const t = await getServerT('project-tools');
  const projects = await listAllProjectItems(ctx);
  const yesNo = (value: boolean) => (value ? t('csv.yes') : t('csv.no'));
  // In batches with the event loop free between them (app/lib/batches.ts).
  const rows = await mapInBatches(projects, (project) => {
    const input = projectEngineInput(project);
    const outcome = calculate(input);
    const row: Row = {
      input,
      filament: filamentTotals(projectFilamentLines(project)),
      // No price possible (the marketplace fee takes the whole sale): the price cells stay empty.
      result: outcome.ok ? outcome.result : null,
      yesNo,
    };
    return COLUMNS.map(([, cell]) => cell(project, row));
  });
  const header = COLUMNS.map(([key]) => t(`csv.columns.${key}`));
  return ok({
    body: csvDocument([header, ...rows]),
    filename: `${t('csv.filePrefix')}-${ctx.now.toISOString().slice(0, 10)}.csv`,
  });
}
