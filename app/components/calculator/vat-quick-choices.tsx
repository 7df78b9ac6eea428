import { useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { useHydrated } from '~/utils/use-hydrated';

const RATES = [19, 7];

/**
 * VAT quick choices (issue 13 §3): the German standard and reduced rate.
 * Links to the calculation with that rate (so they work without scripts);
 * with scripts they set the field in place. Choosing a rate means charging
 * VAT, so the § 19 UStG switch goes off.
 */
export function VatQuickChoices() {
  const { t } = useTranslation('calculator');
  const { search } = useLocation();
  const hydrated = useHydrated();

  function choose(event: React.MouseEvent, rate: number) {
    event.preventDefault();
    const form = document.getElementById('calculator-form') as HTMLFormElement;
    (form.elements.namedItem('smallBusiness') as HTMLInputElement).checked = false;
    const input = form.elements.namedItem('vatPercent') as HTMLInputElement;
    input.value = String(rate);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }

  return (
    <div role="group" aria-label={t('vatQuick.label')} className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-ink-muted">{t('vatQuick.label')}:</span>
      {RATES.map((rate) => {
        const params = new URLSearchParams(search);
        params.set('vatPercent', String(rate));
        params.delete('smallBusiness');
        return (
          <a
            key={rate}
            href={`/calculator?${params}`}
            data-vat-choice={rate}
            onClick={hydrated ? (event) => choose(event, rate) : undefined}
            className="rounded-md border border-brand-200 px-2 py-0.5 text-brand-700 hover:bg-brand-50"
          >
            {t('vatQuick.choice', { percent: rate })}
          </a>
        );
      })}
    </div>
  );
}
