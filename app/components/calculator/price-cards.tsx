import { useTranslation } from 'react-i18next';
import type { CalculationResult } from '~/calculator/engine';
import { formatEuro, formatPercent } from '~/lib/number';
import { Card } from '../ui/card';

type Props = { result: CalculationResult; quantity: number; vatPercent: number; targetPrice: number; smallBusiness?: boolean };

function Row({ label, name, value, strong = false }: { label: string; name: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex items-baseline justify-between gap-3 ${strong ? 'text-base font-semibold' : 'text-sm'}`}>
      <dt className={strong ? 'text-ink' : 'text-ink-muted'}>{label}</dt>
      <dd className="tabular-nums" data-result={name}>
        {value}
      </dd>
    </div>
  );
}

export function MinimumPriceCard({ result, quantity, vatPercent, smallBusiness = false }: Props) {
  const { t } = useTranslation('calculator');
  return (
    <Card title={t('results.minimumPrice')} titleId="minimum-price-title" className="border-brand-200">
      <p className="text-3xl font-bold tracking-tight text-brand-700" aria-describedby="minimum-price-title">
        <span data-result="minimumPriceWithVat">{formatEuro(result.minimumPriceWithVat)}</span>
      </p>
      {/* Its own line in the card's text style, flush with the price (issue 24 §2: it inherited the
          price's tight tracking and sat indented). Two unbreakable phrases: a narrow card or the
          sheet may wrap between them, never inside. */}
      <p className="mb-3 flex flex-wrap gap-x-1 text-sm text-ink-muted" data-minimum-price-caption>
        <span className="whitespace-nowrap">{t(smallBusiness ? 'results.minimumPriceSmallBusiness' : 'results.minimumPriceWithVat')}</span>{' '}
        <span className="whitespace-nowrap">· {t('results.perOrder', { count: quantity })}</span>
      </p>
      <dl className="space-y-1.5">
        <Row label={t('results.minimumPriceNet')} name="minimumPrice" value={formatEuro(result.minimumPrice)} />
        {smallBusiness ? null : (
          <Row label={t('results.vatAmount', { percent: formatPercent(vatPercent) })} name="vatAmount" value={formatEuro(result.vatAmount)} />
        )}
        <Row label={t('results.breakEven')} name="breakEven" value={formatEuro(result.breakEven)} />
        <Row label={t('results.profit')} name="profit" value={formatEuro(result.profit)} />
      </dl>
      {smallBusiness ? (
        <p data-small-business-note className="mt-3 text-sm text-ink-muted">
          {t('results.smallBusinessNote')}
        </p>
      ) : null}
    </Card>
  );
}

export function TargetPriceCard({ result, targetPrice, vatPercent, smallBusiness = false }: Props) {
  const { t } = useTranslation('calculator');
  const below = targetPrice > 0 && result.targetPriceProfit < 0;
  return (
    <Card title={t('results.targetPrice')} titleId="target-price-title" className={below ? 'border-danger-600' : ''}>
      {targetPrice > 0 ? (
        <>
          <dl className="space-y-1.5">
            <Row label={t('results.targetPriceValue')} name="targetPrice" value={formatEuro(targetPrice)} />
            {/* The target price is net (spec rule: profit = target − net costs); this is what a buyer pays. */}
            {/* § 19 UStG: no VAT, so net is what the buyer pays. */}
            {smallBusiness ? null : (
              <Row
                label={t('results.targetPriceGross', { percent: formatPercent(vatPercent) })}
                name="targetPriceGross"
                value={formatEuro(targetPrice * (1 + vatPercent / 100))}
              />
            )}
            <Row label={t('results.targetPriceProfit')} name="targetPriceProfit" value={formatEuro(result.targetPriceProfit)} strong />
            <Row label={t('results.targetPriceProfitMargin')} name="targetPriceProfitMargin" value={formatPercent(result.targetPriceProfitMargin)} />
          </dl>
          {below ? (
            <p role="status" data-below-break-even className="mt-3 rounded-md bg-danger-50 px-3 py-2 text-sm text-danger-700">
              {t('results.belowBreakEven')}
            </p>
          ) : null}
        </>
      ) : (
        <>
          <p className="no-print text-sm text-ink-muted">{t('results.targetPriceNone')}</p>
          {/* Still rendered (as 0) so every result value has its element. */}
          <dl className="sr-only">
            <Row label={t('results.targetPriceProfit')} name="targetPriceProfit" value={formatEuro(result.targetPriceProfit)} />
            <Row label={t('results.targetPriceProfitMargin')} name="targetPriceProfitMargin" value={formatPercent(result.targetPriceProfitMargin)} />
          </dl>
        </>
      )}
      <p className="mt-3 text-xs text-ink-faint" data-target-fee-note>
        {t('results.targetPriceFeeNote')}
      </p>
    </Card>
  );
}

const BATCHES = [
  { count: 5, name: 'priceForFive' },
  { count: 10, name: 'priceForTen' },
  { count: 20, name: 'priceForTwenty' },
] as const;

export function MultiPieceCard({ result, smallBusiness = false }: Props) {
  const { t } = useTranslation('calculator');
  return (
    <Card title={t('results.multiPiece')} titleId="multi-piece-title">
      <ul className="grid grid-cols-3 gap-2 text-center">
        {BATCHES.map((batch) => (
          <li key={batch.name} className="rounded-md bg-surface-subtle px-2 py-3">
            <p className="text-xs text-ink-muted">{t('results.pieces', { count: batch.count })}</p>
            <p className="mt-1 font-semibold tabular-nums" data-result={batch.name}>
              {formatEuro(result[batch.name])}
            </p>
            <p className="text-xs text-ink-faint">{t('results.perPiece')}</p>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-xs text-ink-faint">{t(smallBusiness ? 'results.multiPieceHintSmallBusiness' : 'results.multiPieceHint')}</p>
    </Card>
  );
}
