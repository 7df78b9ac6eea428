import { useTranslation } from 'react-i18next';
import type { CalculatorEvaluation } from '~/calculator/evaluate';
import { formatEuro } from '~/lib/number';

/**
 * Phones only: on a narrow screen the results sit several screens below the
 * form, so the minimum price rides along at the bottom (live with scripts,
 * from the server without) and one tap jumps to the full results (issue 8 §3).
 */
export function StickySummary({ evaluation, stale, action = null }: { evaluation: CalculatorEvaluation; stale: boolean; action?: React.ReactNode }) {
  const { t } = useTranslation('calculator');
  const price = evaluation.status === 'ok' ? formatEuro(evaluation.result.minimumPriceWithVat) : '–';
  return (
    // Issue 24 §3: a signed-in user's save button sits in the bar (`action`), not floating over the page's figures.
    <div className="no-print sticky bottom-2 z-10 flex items-stretch gap-2 lg:hidden" data-sticky-bar>
    <a
      href="#ergebnis"
      data-sticky-summary
      className="flex min-w-0 flex-1 items-center justify-between gap-2 rounded-card border border-brand-200 bg-surface px-3 py-2 shadow-lg"
    >
      <span className="min-w-0 text-xs leading-tight text-ink-muted">
        {/* § 19 UStG: the price carries no VAT. */}
        {t(evaluation.status !== 'invalid' && evaluation.input.smallBusiness ? 'summary.labelSmallBusiness' : 'summary.label')}
        <span className={`block text-lg font-bold text-brand-700 tabular-nums ${stale ? 'opacity-50' : ''}`} data-summary-price data-summary-stale={stale || undefined}>
          {price}
        </span>
      </span>
      <span className="inline-flex shrink-0 items-center gap-1 text-sm font-medium text-brand-700">
        {t('summary.jump')}
        {/* A plain arrow, not an icon component: this is first-visit JavaScript (budget). */}
        <span aria-hidden="true">↓</span>
      </span>
    </a>
    {action}
    </div>
  );
}
