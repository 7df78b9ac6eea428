import { useTranslation } from 'react-i18next';
import { costBreakdown, failureSurcharge, type CalculationResult } from '~/calculator/engine';
import { formatEuro, formatPercent } from '~/utils/number';
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

/** The six cost categories as amounts and as a bar chart (plain SVG, rendered on the server too). */
export function CostOverview({ result, failureRate = 0 }: { result: CalculationResult; failureRate?: number }) {
  const { t } = useTranslation('calculator');
  const categories = costBreakdown(result);
  const max = Math.max(...categories.map((c) => c.amount), 0.0001);
  const rowHeight = 22;

  return (
    <Card title={t('results.overview')} titleId="cost-overview-title">
      <svg
        role="img"
        aria-label={t('results.chartLabel')}
        viewBox={`0 0 100 ${categories.length * rowHeight}`}
        preserveAspectRatio="none"
        className="mb-4 h-32 w-full print:mb-2 print:h-16"
      >
        {categories.map((category, index) => (
          <rect
            key={category.key}
            x={0}
            y={index * rowHeight + 4}
            height={rowHeight - 8}
            width={Math.max((category.amount / max) * 100, category.amount > 0 ? 0.8 : 0)}
            rx={1.5}
            fill={BAR_COLORS[index]}
          >
            <title>{`${t(`results.categories.${category.key}`)}: ${formatEuro(category.amount)}`}</title>
          </rect>
        ))}
      </svg>
      <dl className="space-y-1.5 text-sm">
        {categories.map((category, index) => (
          <div key={category.key} className="flex items-center justify-between gap-3">
            <dt className="flex items-center gap-2 text-ink-muted">
              <svg aria-hidden="true" viewBox="0 0 10 10" className="h-2.5 w-2.5 shrink-0">
                <rect width="10" height="10" rx="2" fill={BAR_COLORS[index]} />
              </svg>
              {t(`results.categories.${category.key}`)}
            </dt>
            <dd className="tabular-nums" data-result={CATEGORY_RESULT_NAME[category.key]}>
              {formatEuro(category.amount)}
            </dd>
          </div>
        ))}
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
