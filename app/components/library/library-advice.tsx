import { Form, useNavigation } from '@remix-run/react';
import { ChevronDown, Info, Plus } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClassName } from '~/components/ui/button-link';
import { libraryDefinitions, type LibraryDefinition, type LibraryKind } from '~/domain/library-definitions';
import { libraryPresets } from '~/domain/library-presets';

/**
 * The static advice of a library page (spec §2): advice text, not logic. The
 * marketplace and shipping tables offer "In meine Bibliothek übernehmen", a
 * plain form post that creates the item and opens it for editing.
 */
export function LibraryAdvice({ kind, advice, q }: { kind: LibraryKind; advice: NonNullable<LibraryDefinition['advice']>; q: string }) {
  switch (advice) {
    case 'filamentTips':
      return <TipsList advice={advice} collapsible />;
    case 'packagingTips':
      return <TipsList advice={advice} />;
    case 'shippingPrices':
      return <ShippingPrices kind={kind} q={q} />;
    case 'marketplaceFees':
      return <MarketplaceFees kind={kind} q={q} />;
  }
}

function TipsList({ advice, collapsible = false }: { advice: 'filamentTips' | 'packagingTips'; collapsible?: boolean }) {
  const { t } = useTranslation('library');
  const items = t(`advice.${advice}.items`, { returnObjects: true }) as unknown as string[];
  const list = (
    <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-ink-muted">
      {(Array.isArray(items) ? items : []).map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
  if (collapsible) {
    return (
      <details className="group mt-10 rounded-card border border-surface-line bg-surface p-4 shadow-card" data-library-advice={advice}>
        <summary className="flex cursor-pointer list-none items-center justify-between gap-2 font-semibold">
          <span className="flex items-center gap-2">
            <Info aria-hidden="true" className="size-5 text-brand-600" />
            {t(`advice.${advice}.title`)}
          </span>
          <ChevronDown aria-hidden="true" className="size-5 transition-transform group-open:rotate-180" />
        </summary>
        {list}
      </details>
    );
  }
  return (
    <aside className="mt-10 rounded-card border border-brand-200 bg-brand-50 p-4" data-library-advice={advice}>
      <h2 className="flex items-center gap-2 font-semibold">
        <Info aria-hidden="true" className="size-5 text-brand-600" />
        {t(`advice.${advice}.title`)}
      </h2>
      {list}
    </aside>
  );
}

function PresetButton({ kind, preset, name, q }: { kind: LibraryKind; preset: string; name: string; q: string }) {
  const { t } = useTranslation('library');
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formData?.get('preset') === preset;
  return (
    <Form method="post" action={libraryDefinitions[kind].path} preventScrollReset>
      <input type="hidden" name="intent" value="preset" />
      <input type="hidden" name="preset" value={preset} />
      <input type="hidden" name="q" value={q} />
      <button
        type="submit"
        disabled={pending}
        className={buttonClassName({ variant: 'secondary', size: 'sm', className: 'whitespace-nowrap' })}
        aria-label={t('common.takeOverItem', { name })}
      >
        <Plus aria-hidden="true" className="size-4" />
        {t('common.takeOver')}
      </button>
    </Form>
  );
}

function AdviceSection({ id, title, asOf, intro, children }: { id: string; title: string; asOf: string; intro: string; children: React.ReactNode }) {
  const { t } = useTranslation('library');
  return (
    <section aria-labelledby={id} className="mt-10 rounded-card border border-surface-line bg-surface p-4 shadow-card sm:p-5">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        {intro} {t('common.asOf', { date: asOf })}
      </p>
      {children}
      <p className="mt-3 text-xs text-ink-muted">{t('common.disclaimer')}</p>
    </section>
  );
}

function ShippingPrices({ kind, q }: { kind: LibraryKind; q: string }) {
  const { t } = useTranslation('library');
  const id = useId();
  const base = 'advice.shippingPrices';
  const others = t(`${base}.others`, { returnObjects: true }) as unknown as Record<string, string>;
  return (
    <AdviceSection id={id} title={t(`${base}.title`)} asOf={t(`${base}.asOf`)} intro={t(`${base}.intro`)}>
      <WideTable advice="shippingPrices" label={t(`${base}.title`)} hintBelow="sm">
        <table className="w-full min-w-[30rem] text-left text-sm">
          <thead className="text-ink-muted">
            <tr>
              <th scope="col" className="py-2 pr-3 font-medium">{t(`${base}.product`)}</th>
              <th scope="col" className="py-2 pr-3 font-medium">{t(`${base}.price`)}</th>
              <th scope="col" className="py-2 pr-3 font-medium">{t(`${base}.limits`)}</th>
              <th scope="col" className="py-2 font-medium"><span className="sr-only">{t(`${base}.action`)}</span></th>
            </tr>
          </thead>
          <tbody>
            {(libraryPresets.shipping ?? []).map((preset) => {
              const product = t(`${base}.rows.${preset.id}.product`);
              return (
                <tr key={preset.id} className="border-t border-surface-line align-top">
                  <th scope="row" className="py-2 pr-3 font-medium">{product}</th>
                  <td className="py-2 pr-3 tabular-nums">{t(`${base}.rows.${preset.id}.price`)}</td>
                  <td className="py-2 pr-3 text-ink-muted">{t(`${base}.rows.${preset.id}.limits`)}</td>
                  <td className="py-2">
                    <PresetButton kind={kind} preset={preset.id} name={product} q={q} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </WideTable>
      <p className="mt-3 text-xs text-ink-muted">{t(`${base}.source`)}</p>
      <h3 className="mt-4 text-sm font-semibold">{t(`${base}.othersTitle`)}</h3>
      <p className="mt-1 text-sm text-ink-muted">{t(`${base}.othersText`)}</p>
      <ul className="mt-1 list-disc pl-5 text-sm text-ink-muted">
        {Object.entries(others && typeof others === 'object' ? others : {}).map(([key, label]) => (
          <li key={key}>{label}</li>
        ))}
      </ul>
    </AdviceSection>
  );
}

/**
 * A table wider than a phone: it scrolls sideways inside its box, which says so
 * on screens narrower than the table (nothing else shows that columns are
 * hidden), and the box takes keyboard focus so arrow keys scroll it too.
 */
function WideTable({ advice, label, hintBelow, children }: { advice: string; label: string; hintBelow: 'sm' | 'md'; children: React.ReactNode }) {
  const { t } = useTranslation('library');
  return (
    <>
      <p className={`mt-3 text-xs text-ink-muted ${hintBelow === 'sm' ? 'sm:hidden' : 'md:hidden'}`} data-scroll-hint>
        {t('common.scrollHint')}
      </p>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard */}
      <div className="relative mt-2 overflow-x-auto focus-visible:outline-2 focus-visible:outline-brand-600" data-library-advice={advice} tabIndex={0} role="region" aria-label={t('common.tableLabel', { title: label })}>
        {children}
      </div>
    </>
  );
}

const MARKETPLACE_ROWS = ['etsy', 'ebay-business', 'ebay-private', 'amazon-handmade', 'kleinanzeigen', 'stripe'] as const;

function MarketplaceFees({ kind, q }: { kind: LibraryKind; q: string }) {
  const { t } = useTranslation('library');
  const id = useId();
  const base = 'advice.marketplaceFees';
  const presetIds = new Set((libraryPresets.marketplaces ?? []).map((preset) => preset.id));
  return (
    <AdviceSection id={id} title={t(`${base}.title`)} asOf={t(`${base}.asOf`)} intro={t(`${base}.intro`)}>
      <WideTable advice="marketplaceFees" label={t(`${base}.title`)} hintBelow="md">
        <table className="w-full min-w-[40rem] text-left text-sm">
          <thead className="text-ink-muted">
            <tr>
              <th scope="col" className="py-2 pr-3 font-medium">{t(`${base}.name`)}</th>
              <th scope="col" className="py-2 pr-3 font-medium">{t(`${base}.percentage`)}</th>
              <th scope="col" className="py-2 pr-3 font-medium">{t(`${base}.fixed`)}</th>
              <th scope="col" className="py-2 pr-3 font-medium">{t(`${base}.notes`)}</th>
              <th scope="col" className="py-2 font-medium"><span className="sr-only">{t(`${base}.action`)}</span></th>
            </tr>
          </thead>
          <tbody>
            {MARKETPLACE_ROWS.map((row) => {
              const name = t(`${base}.rows.${row}.name`);
              return (
                <tr key={row} className="border-t border-surface-line align-top">
                  <th scope="row" className="py-2 pr-3 font-medium">{name}</th>
                  <td className="py-2 pr-3">{t(`${base}.rows.${row}.percentage`)}</td>
                  <td className="py-2 pr-3">{t(`${base}.rows.${row}.fixed`)}</td>
                  <td className="py-2 pr-3 text-ink-muted">{t(`${base}.rows.${row}.notes`)}</td>
                  <td className="py-2">{presetIds.has(row) ? <PresetButton kind={kind} preset={row} name={name} q={q} /> : null}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </WideTable>
    </AdviceSection>
  );
}
