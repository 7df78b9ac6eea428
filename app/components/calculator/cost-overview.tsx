import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { costBreakdown, failureSurcharge } from '~/calculator/breakdown';
import type { CalculationResult } from '~/calculator/engine';
import { formatEuro, formatPercent } from '~/lib/number';
import { Card } from '../ui/card';

const CATEGORY_RESULT_NAME = {
  filament: 'filamentCost',
  power: 'powerCost',
  wear: 'depreciationCost',
  labor: 'laborCost',
  shipping: 'shippingTotal',
  marketplace: 'marketplaceFees',
} as const;

const BAR_COLORS = ['#1f8a80', '#f08c2e', '#6b7fd7', '#c2549d', '#4d5a5e', '#e0a800'];

/**
 * The six cost categories as a labelled bar chart: each bar has its name,
 * amount and share as text beside it, so it reads without the colours and
 * screen readers get the same list (plain SVG bars, rendered on the server too).
 */
export function CostOverview({
  result,
  failureRate = 0,
  filamentDetail,
}: {
  result: CalculationResult;
  failureRate?: number;
  /** Issue 23: the filament lines under 'Filament' (rendered only when there are several). */
  filamentDetail?: ReactNode;
}) {
  const { t } = useTranslation('calculator');
  const categories = costBreakdown(result);
  const max = Math.max(...categories.map((c) => c.amount), 0.0001);
  const total = result.totalCosts;

  return (
    <Card title={t('results.overview')} titleId="cost-overview-title">
      <dl className="space-y-2 text-sm" data-cost-chart>
        {categories.map((category, index) => {
          const share = total > 0 ? (category.amount / total) * 100 : 0;
          return (
            // dt and dd are the only children a <dl> row may have, so the bar sits in the term, under its name.
            <div key={category.key} data-cost-bar={category.key} className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-x-3">
              {/* Long German words ("Druckerverschleiß") break at 320 px instead of running into the share. */}
              <dt className="text-ink-muted [overflow-wrap:anywhere] hyphens-auto" lang="de">
                {t(`results.categories.${category.key}`)}
                <svg aria-hidden="true" viewBox="0 0 100 4" preserveAspectRatio="none" className="mt-0.5 block h-2 w-full print:h-1.5">
                  <rect x={0} y={0} height={4} width={100} rx={1} fill="#eef1f1" />
                  <rect
                    x={0}
                    y={0}
                    height={4}
                    width={Math.max((category.amount / max) * 100, category.amount > 0 ? 0.8 : 0)}
                    rx={1}
                    fill={BAR_COLORS[index]}
                  />
                </svg>
              </dt>
              <dd className="flex items-baseline gap-2 tabular-nums">
                <span className="text-xs text-ink-faint">{t('results.share', { percent: formatPercent(Math.round(share)) })}</span>
                <span data-result={CATEGORY_RESULT_NAME[category.key]}>{formatEuro(category.amount)}</span>
              </dd>
              {/* Issue 23: the filament lines, a row of their own under the bar. */}
              {category.key === 'filament' && filamentDetail ? <dd className="col-span-2 empty:hidden">{filamentDetail}</dd> : null}
            </div>
          );
        })}
        {failureRate > 0 ? (
          <div className="flex items-center justify-between gap-3 text-xs text-ink-faint">
            <dt>{t('results.failureSurcharge', { percent: formatPercent(failureRate) })}</dt>
            <dd className="tabular-nums" data-result="failureSurcharge">
              {formatEuro(failureSurcharge(result, failureRate))}
            </dd>
          </div>
        ) : null}
        <div className="flex items-center justify-between gap-3 border-t border-surface-line pt-2 font-semibold">
          <dt>{t('results.totalCosts')}</dt>
          <dd className="tabular-nums" data-result="totalCosts">
            {formatEuro(result.totalCosts)}
          </dd>
        </div>
      </dl>
    </Card>
  );
}
