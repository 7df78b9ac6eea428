import { ChevronDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { sumDetailedCosts } from '~/calculator/breakdown';
import type { BaseCosts } from '~/calculator/engine';
import { formatEuro } from '~/lib/number';

/** Collapsed by default; the summary already shows the sum of filament, power, wear and shipping. */
export function DetailedCosts({ costs }: { costs: BaseCosts | null }) {
  const { t } = useTranslation('calculator');
  const rows = costs
    ? ([
        ['filament', costs.filamentCost],
        ['power', costs.powerCost],
        ['wear', costs.depreciationCost],
        ['shipping', costs.shippingTotal],
      ] as const)
    : [];
  return (
    <details className="group rounded-card border border-surface-line bg-surface shadow-card" data-detailed-costs>
      <summary className="flex items-center justify-between gap-3 rounded-card px-4 py-3 sm:px-5">
        <span>
          <span className="block font-semibold">{t('results.detailed')}</span>
          <span className="block text-xs text-ink-faint">{t('results.detailedSummary')}</span>
        </span>
        <span className="flex items-center gap-2">
          <span className="font-semibold tabular-nums" data-detailed-sum>
            {costs ? formatEuro(sumDetailedCosts(costs)) : '–'}
          </span>
          <ChevronDown aria-hidden="true" className="h-4 w-4 transition-transform group-open:rotate-180" />
        </span>
      </summary>
      <dl className="space-y-1.5 border-t border-surface-line px-4 py-3 text-sm sm:px-5">
        {rows.map(([key, amount]) => (
          <div key={key} className="flex justify-between gap-3">
            <dt className="text-ink-muted">{t(`results.categories.${key}`)}</dt>
            <dd className="tabular-nums">{formatEuro(amount)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
