import { AdSlot } from '~/components/ads/ad-slot';
import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import {
  ArrowRight,
  BadgeEuro,
  Boxes,
  ChevronDown,
  Clock,
  Cylinder,
  Package,
  Store,
  Target,
  Wrench,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { listOf } from '~/components/legal-page';
import { ButtonLink } from '~/components/ui/button-link';
import { workedExampleHref } from '~/calculator/worked-example';
import { getServerT } from '~/i18n.server';
import { getOptionalUser, getRequestContext } from '~/services/auth.server';
import { publicPageHeaders } from '~/server/http-cache';
import { adContentPreloads } from '~/server/part-preloads.server';
import { getAdsView } from '~/models/ads.server';
import { getConsent } from '~/web/consent.server';

// For a visitor the page depends only on the address and the consent cookie (visitor-page-cache.server.ts).
// `ads`: this page has ad slots (entry.server.tsx widens its CSP for the ad script when allowed).
export const handle = { i18n: ['landing'], ads: true };
// Shared for visitors (sessions are made private by the server): app/server/http-cache.ts.
export const headers = publicPageHeaders;

/** The landing page is for visitors; signed-in users start in the calculator (spec §2 "Route availability"). */
export async function loader(args: LoaderFunctionArgs) {
  if (await getOptionalUser(args)) throw redirect('/calculator');
  const t = await getServerT('landing');
  // Built on the server so the field table stays out of the landing page's JavaScript.
  // The ad slot's content is a chunk of its own: fetched with the page's scripts once it shows (root.tsx).
  const partPreloads = adContentPreloads(await getAdsView(await getRequestContext(args), await getConsent(args.request)));
  return { title: t('meta.title'), description: t('meta.description'), exampleHref: workedExampleHref(), partPreloads };
}

type Claim = { value: string; label: string };
type FaqItem = { question: string; answer: string[]; points?: string[] };

const FEATURES: { key: string; icon: LucideIcon }[] = [
  { key: 'filament', icon: Cylinder },
  { key: 'power', icon: Zap },
  { key: 'wear', icon: Wrench },
  { key: 'labour', icon: Clock },
  { key: 'shipping', icon: Package },
  { key: 'marketplace', icon: Store },
  { key: 'minimumPrice', icon: BadgeEuro },
  { key: 'targetPrice', icon: Target },
  { key: 'batches', icon: Boxes },
];

// Costs first, then own cost, margin and fees in the order they build on each
// other, so every subtotal in the table adds up for the reader.
const COST_ROWS = ['material', 'operation', 'labour', 'shipping'] as const;
const PREVIEW_ROWS = ['ownCost', 'margin', 'fees'] as const;

export default function Landing() {
  return (
    <>
      <main id="main">
        <Hero />
        <Features />
        <WorkedExample />
        <Faq />
        <ClosingCta />
      </main>
      {/* Kept outside <main> so the landmark stays top-level. */}
      <AdSlot position="landing" />
    </>
  );
}

function Hero() {
  const { t } = useTranslation('landing');
  const claims = listOf<Claim>(t('hero.claims', { returnObjects: true }));
  return (
    <section aria-labelledby="hero-title" className="border-b border-surface-line bg-linear-to-b from-brand-50 to-surface-subtle">
      <div className="mx-auto grid max-w-page items-center gap-10 px-4 py-12 sm:py-16 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,0.8fr)] lg:gap-16 lg:py-20">
        <div>
          <p className="inline-flex items-center rounded-full border border-brand-200 bg-surface px-3 py-1 text-sm font-medium text-brand-700">
            {t('hero.eyebrow')}
          </p>
          <h1 id="hero-title" className="mt-5 text-4xl font-bold leading-tight tracking-tight text-ink sm:text-5xl">
            {t('hero.title')}
          </h1>
          <p className="mt-5 max-w-2xl text-lg leading-relaxed text-ink-muted">{t('hero.lead')}</p>

          <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            <ButtonLink to="/auth?tab=register" size="lg">
              {t('hero.register')}
            </ButtonLink>
            <ButtonLink to="/auth" variant="secondary" size="lg">
              {t('hero.login')}
            </ButtonLink>
            <a
              href="#beispiel"
              className="inline-flex min-h-12 items-center justify-center gap-2 rounded-md px-5 py-3 text-base font-semibold text-brand-700 transition-colors hover:bg-brand-100 hover:text-brand-900"
            >
              {t('hero.example')}
              <ChevronDown aria-hidden="true" className="size-4" />
            </a>
          </div>

          <p className="mt-5 text-sm text-ink-muted">
            {t('hero.calculatorPrefix')}{' '}
            <Link
              to="/calculator"
              className="inline-flex items-center gap-1 font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
            >
              {t('hero.calculator')}
              <ArrowRight aria-hidden="true" className="size-4" />
            </Link>
          </p>

          <ul aria-label={t('hero.claimsLabel')} className="mt-10 grid max-w-xl grid-cols-3 gap-3 sm:gap-4">
            {claims.map((claim) => (
              <li key={claim.label} className="rounded-card border border-surface-line bg-surface px-3 py-4 text-center shadow-card sm:px-4">
                <strong className="block text-2xl font-bold tabular-nums text-brand-700 sm:text-3xl">{claim.value}</strong>{' '}
                <span className="block text-sm text-ink-muted">{claim.label}</span>
              </li>
            ))}
          </ul>
        </div>

        <PricePreview />
      </div>
    </section>
  );
}

/** A compact receipt of the worked example, so the hero shows what the tool produces. */
function PricePreview() {
  const { t } = useTranslation('landing');
  return (
    <div className="rounded-card border border-surface-line bg-surface p-4 shadow-card min-[360px]:p-6 sm:p-8">
      <p className="text-sm font-semibold uppercase tracking-wide text-ink-muted">{t('hero.previewLabel')}</p>
      <dl className="mt-5 space-y-3">
        {PREVIEW_ROWS.map((row) => (
          <div key={row} className="flex items-baseline justify-between gap-4 border-b border-dashed border-surface-line pb-3">
            <dt className="text-ink-muted">{t(`example.rows.${row}.label`)}</dt>
            <dd className="whitespace-nowrap font-medium tabular-nums text-ink">{t(`example.rows.${row}.amount`)}</dd>
          </div>
        ))}
        <div className="flex items-baseline justify-between gap-4 pt-1">
          <dt className="font-semibold text-ink">{t('example.rows.price.label')}</dt>
          <dd className="whitespace-nowrap text-2xl font-bold tabular-nums text-brand-700 min-[360px]:text-3xl">{t('example.rows.price.amount')}</dd>
        </div>
      </dl>
      <a
        href="#beispiel"
        className="mt-6 inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
      >
        {t('hero.previewLink')}
        <ArrowRight aria-hidden="true" className="size-4" />
      </a>
    </div>
  );
}

function Features() {
  const { t } = useTranslation('landing');
  return (
    <section aria-labelledby="features-title" className="mx-auto max-w-page px-4 py-14 sm:py-20">
      <div className="max-w-2xl">
        <h2 id="features-title" className="text-3xl font-bold tracking-tight text-ink">
          {t('features.title')}
        </h2>
        <p className="mt-3 text-lg text-ink-muted">{t('features.lead')}</p>
      </div>
      <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map(({ key, icon: Icon }) => (
          <li key={key} className="flex gap-4 rounded-card border border-surface-line bg-surface p-5 shadow-card">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <div>
              <h3 className="font-semibold text-ink">{t(`features.items.${key}.title`)}</h3>
              <p className="mt-1 text-sm leading-relaxed text-ink-muted">{t(`features.items.${key}.text`)}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function WorkedExample() {
  const { exampleHref } = useLoaderData<typeof loader>();
  const { t } = useTranslation('landing');
  const row = (key: string, tone: 'cost' | 'subtotal' | 'total') => (
    <tr
      key={key}
      className={
        tone === 'total'
          ? 'bg-brand-50'
          : tone === 'subtotal'
            ? 'border-t-2 border-ink/20 bg-surface-subtle'
            : 'border-t border-surface-line'
      }
    >
      <th scope="row" className="px-3 py-3 text-left align-top font-normal min-[360px]:px-4 sm:px-6">
        <span className={tone === 'cost' ? 'font-medium text-ink' : 'font-semibold text-ink'}>{t(`example.rows.${key}.label`)}</span>
        <span className="mt-0.5 block text-sm text-ink-muted">{t(`example.rows.${key}.detail`)}</span>
      </th>
      <td
        className={`whitespace-nowrap px-3 py-3 text-right align-top tabular-nums min-[360px]:px-4 sm:px-6 ${
          tone === 'total' ? 'text-xl font-bold text-brand-700 min-[360px]:text-2xl' : tone === 'subtotal' ? 'font-semibold text-ink' : 'text-ink'
        }`}
      >
        {t(`example.rows.${key}.amount`)}
      </td>
    </tr>
  );

  return (
    <section id="beispiel" aria-labelledby="beispiel-title" className="scroll-mt-6 border-y border-surface-line bg-surface">
      <div className="mx-auto grid max-w-page gap-10 px-4 py-14 sm:py-20 lg:grid-cols-[minmax(0,0.8fr)_minmax(0,1.2fr)] lg:gap-16">
        <div>
          <h2 id="beispiel-title" className="text-3xl font-bold tracking-tight text-ink">
            {t('example.title')}
          </h2>
          <p className="mt-3 text-lg leading-relaxed text-ink-muted">{t('example.lead')}</p>
          <p className="mt-3 text-sm leading-relaxed text-ink-muted" data-example-assumptions>
            {t('example.assumptions')}
          </p>
          <p className="mt-4 text-sm leading-relaxed text-ink-muted">{t('example.note')}</p>
          {/* Issue 24 §2: the example adds the fees after the margin (the spec's figures); the calculator takes them from the price. */}
          <p className="mt-3 text-sm leading-relaxed text-ink-muted" data-example-fees-note>
            {t('example.feesNote')}
          </p>
          <ButtonLink to={exampleHref} className="mt-6">
            {t('example.cta')}
            <ArrowRight aria-hidden="true" className="size-4" />
          </ButtonLink>
        </div>

        <div className="overflow-hidden rounded-card border border-surface-line shadow-card">
          <table className="w-full border-collapse">
            <caption className="sr-only">{t('example.caption')}</caption>
            <thead className="bg-surface-subtle text-left text-sm text-ink-muted">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold min-[360px]:px-4 sm:px-6">
                  {t('example.columnItem')}
                </th>
                <th scope="col" className="px-3 py-2 text-right font-semibold min-[360px]:px-4 sm:px-6">
                  {t('example.columnAmount')}
                </th>
              </tr>
            </thead>
            <tbody>
              {COST_ROWS.map((key) => row(key, 'cost'))}
              {row('ownCost', 'subtotal')}
              {row('margin', 'cost')}
              {row('fees', 'cost')}
              {row('price', 'total')}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

function Faq() {
  const { t } = useTranslation('landing');
  const items = listOf<FaqItem>(t('faq.items', { returnObjects: true }));
  return (
    <section aria-labelledby="faq-title" className="mx-auto max-w-3xl px-4 py-14 sm:py-20">
      <h2 id="faq-title" className="text-3xl font-bold tracking-tight text-ink">
        {t('faq.title')}
      </h2>
      <p className="mt-3 text-lg text-ink-muted">{t('faq.lead')}</p>
      <div className="mt-8 divide-y divide-surface-line overflow-hidden rounded-card border border-surface-line bg-surface shadow-card">
        {items.map((item) => (
          <details key={item.question} className="group">
            <summary className="flex list-none items-center justify-between gap-4 px-5 py-4 font-semibold text-ink hover:bg-surface-subtle focus-visible:-outline-offset-2 sm:px-6 [&::-webkit-details-marker]:hidden">
              <span>{item.question}</span>
              <ChevronDown
                aria-hidden="true"
                className="size-5 shrink-0 text-brand-700 transition-transform group-open:rotate-180 motion-reduce:transition-none"
              />
            </summary>
            <div className="space-y-3 px-5 pb-5 leading-relaxed text-ink-muted sm:px-6">
              {item.answer.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
              {item.points ? (
                <ul className="list-disc space-y-1 pl-5 marker:text-brand-600">
                  {item.points.map((point) => (
                    <li key={point}>{point}</li>
                  ))}
                </ul>
              ) : null}
            </div>
          </details>
        ))}
      </div>
    </section>
  );
}

function ClosingCta() {
  const { t } = useTranslation('landing');
  return (
    <section aria-labelledby="cta-title" className="mx-auto max-w-page px-4 pb-14 sm:pb-20">
      <div className="rounded-card bg-brand-900 px-6 py-10 text-center text-white shadow-card sm:px-12 sm:py-14">
        <h2 id="cta-title" className="text-2xl font-bold tracking-tight sm:text-3xl">
          {t('cta.title')}
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-brand-100">{t('cta.text')}</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link
            to="/auth?tab=register"
            className="inline-flex min-h-12 items-center justify-center rounded-md bg-surface px-5 py-3 font-semibold text-brand-900 hover:bg-brand-50 focus-visible:outline-white"
          >
            {t('cta.register')}
          </Link>
          <Link
            to="/calculator"
            className="inline-flex min-h-12 items-center justify-center gap-2 rounded-md border border-brand-200 px-5 py-3 font-semibold text-white hover:bg-brand-700 focus-visible:outline-white"
          >
            {t('cta.calculator')}
            <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
        </div>
      </div>
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [];
  return [
    { title: data.title },
    { name: 'description', content: data.description },
    { property: 'og:title', content: data.title },
    { property: 'og:description', content: data.description },
    { property: 'og:type', content: 'website' },
    { property: 'og:locale', content: 'de_DE' },
  ];
};
