import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { Download, Printer, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { evaluateCalculator, type CalculatorEvaluation } from '~/calculator/evaluate';
import { calculatorFieldNames, rawValuesFromSearchParams, rawValuesToSearchParams, type CalculatorRawValues } from '~/calculator/fields';
import { loadLiveCalculator, type LiveCalculator } from '~/calculator/live';
import { FieldSection } from '~/components/calculator/calculator-form-fields';
import { CostOverview } from '~/components/calculator/cost-overview';
import { DetailedCosts } from '~/components/calculator/detailed-costs';
import { HelpSection } from '~/components/calculator/help-section';
import { MinimumPriceCard, MultiPieceCard, TargetPriceCard } from '~/components/calculator/price-cards';
import { PrintSheetHeader } from '~/components/calculator/print-sheet';
import { SignInPrompt } from '~/components/calculator/sign-in-prompt';
import { SLICER_FORM_ID, SlicerImport, type SlicerNoticeView } from '~/components/calculator/slicer-import';
import { Card } from '~/components/ui/card';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { getServerT } from '~/i18n.server';
import { importSlicerFile } from '~/models/slicer-import.server';
import { getEm } from '~/services/db.server';
import { clientIp } from '~/services/rate-limit.server';
import { importedFieldValues, importInfoFromSummary, importNoticeFromParams, importNoticeToParams, type SlicerImportNotice } from '~/slicer/import-link';
import { buildImportView } from '~/slicer/import-view';
import { useHydrated } from '~/utils/use-hydrated';
import { publicPageHeaders } from '~/utils/http-cache';

// For a visitor the page depends only on the address and the consent cookie (visitor-page-cache.server.ts).
export const handle = { i18n: ['calculator'] };
// Shared for visitors (sessions are made private by the server): app/utils/http-cache.ts.
export const headers = publicPageHeaders;

/**
 * The whole calculation is a GET: `/calculator?<fields>` is validated and
 * calculated here on the server (bookmarkable, shareable, works without JS).
 * In the browser the same schema and engine (~/calculator/evaluate) recompute
 * on every keystroke; that chunk is fetched when the visitor first reaches for
 * the form, so a first visit downloads less JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const values = rawValuesFromSearchParams(params);
  const t = await getServerT('calculator');
  return {
    values,
    evaluation: evaluateCalculator(values),
    slicerNotice: slicerNoticeView(params, t),
    meta: { title: t('meta.title'), description: t('meta.description') },
  };
}

function slicerNoticeView(params: URLSearchParams, t: (key: string, options?: Record<string, unknown>) => string): SlicerNoticeView | null {
  const notice = importNoticeFromParams(params);
  if (notice?.kind !== 'info') return notice;
  return { ...notice, view: buildImportView(notice.info, t, `?${params}`) };
}

/**
 * The slicer import without JavaScript: a multipart post of the file and the
 * form's current texts. The file is streamed (head and tail kept, nothing
 * stored); the answer is a redirect to the calculation link with weight and
 * print time filled in and the import notice (or its German error) in the link.
 */
export async function action({ request }: ActionFunctionArgs) {
  const result = await importSlicerFile({ em: await getEm(), ip: clientIp(request) }, request);
  const fields = 'fields' in result ? result.fields : {};
  const values = rawValuesFromSearchParams(new URLSearchParams(calculatorFieldNames.flatMap((name) => (name in fields ? [[name, fields[name]]] : []))));
  let notice: SlicerImportNotice;
  if (result.status === 'ok') {
    const info = importInfoFromSummary(result.summary);
    Object.assign(values, importedFieldValues(info));
    notice = { kind: 'info', info };
  } else if (result.status === 'unreadable') {
    notice = { kind: 'error', code: result.error.code, params: 'params' in result.error ? result.error.params : undefined };
  } else {
    notice = { kind: 'error', code: result.status === 'badRequest' ? 'missingFile' : result.status };
  }
  return redirect(`/calculator?${importNoticeToParams(notice, rawValuesToSearchParams(values))}#slicer-import`, 303);
}

export default function CalculatorPage() {
  const { values, evaluation, slicerNotice } = useLoaderData<typeof loader>();
  const location = useLocation();
  // A navigation (reset, a shared link) remounts the form with the loader's texts.
  return <Calculator key={location.key} initial={{ values, evaluation }} slicerNotice={slicerNotice} />;
}

const URL_SYNC_DELAY_MS = 200;

type CalculatorState = { values: CalculatorRawValues; evaluation: CalculatorEvaluation };

function Calculator({ initial, slicerNotice }: { initial: CalculatorState; slicerNotice: SlicerNoticeView | null }) {
  const { t } = useTranslation('calculator');
  const hydrated = useHydrated();
  const [{ values, evaluation }, setState] = useState(initial);
  const live = useRef<LiveCalculator | null>(null);
  const urlTimer = useRef<number>(undefined);
  // A navigation (reset, another link) must not be overwritten by a pending address update:
  // neither by one already scheduled (cancelled when the navigation starts, and on unmount)
  // nor by one scheduled later by an input that was still waiting for the live-calculation chunk.
  const navigation = useNavigation();
  const settled = useRef(true);
  settled.current = navigation.state === 'idle';
  useEffect(() => {
    if (navigation.state !== 'idle') window.clearTimeout(urlTimer.current);
  }, [navigation.state]);
  useEffect(() => {
    settled.current = true;
    return () => {
      settled.current = false;
      window.clearTimeout(urlTimer.current);
    };
  }, []);
  const errors = evaluation.status === 'invalid' ? evaluation.errors : {};

  function preloadLiveCalculator() {
    void loadLiveCalculator().then((module) => (live.current = module));
  }

  async function onFormInput(event: React.FormEvent<HTMLFormElement>) {
    // Read before awaiting: React clears currentTarget once the handler yields.
    const data = new FormData(event.currentTarget);
    const calculator = live.current ?? (live.current = await loadLiveCalculator());
    if (!settled.current) return;
    const next = calculator.rawValuesFromSearchParams(data);
    setState({ values: next, evaluation: calculator.evaluateCalculator(next) });
    // Keep the address shareable without a navigation or a history entry per keystroke.
    // Debounced: replaceState is slow-ish and browsers throttle frequent calls.
    const url = `${window.location.pathname}?${calculator.rawValuesToSearchParams(next)}`;
    window.clearTimeout(urlTimer.current);
    urlTimer.current = window.setTimeout(() => {
      if (settled.current) window.history.replaceState(window.history.state, '', url);
    }, URL_SYNC_DELAY_MS);
  }

  function onFormSubmit(event: React.FormEvent<HTMLFormElement>) {
    // Results are already live; only the export button leaves the page (a download).
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (!submitter?.hasAttribute('formaction')) event.preventDefault();
  }

  const sectionProps = { values: initial.values, errors };

  return (
    <main className="mx-auto max-w-page px-4 py-6 sm:py-8">
      <PrintSheetHeader values={values} />
      <div className="no-print mb-6">
        <h1 className="text-2xl font-bold sm:text-3xl">{t('heading')}</h1>
        <p className="mt-1 text-ink-muted">{t('intro')}</p>
      </div>
      <form
        id="calculator-form"
        method="get"
        action="/calculator"
        noValidate
        onInput={onFormInput}
        onFocus={preloadLiveCalculator}
        onPointerEnter={preloadLiveCalculator}
        onSubmit={onFormSubmit}
        className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]"
      >
        <div className="no-print space-y-6">
          <FieldSection
            section="basics"
            {...sectionProps}
            after={
              <div className="space-y-4">
                <SlicerImport initial={slicerNotice} />
                <SignInPrompt messageKey="signIn.imageUpload" />
              </div>
            }
          />
          <FieldSection section="pricing" {...sectionProps} />
          <FieldSection section="printerFilament" {...sectionProps} before={<SignInPrompt messageKey="signIn.pickers" />} />
          <FieldSection section="packagingShipping" {...sectionProps} />
          <FieldSection section="marketplace" {...sectionProps} />
          <DetailedCosts costs={evaluation.status === 'ok' ? evaluation.result : evaluation.status === 'impossible' ? evaluation.partial : null} />
          <FieldSection section="labor" {...sectionProps} />
          {hydrated ? null : (
            <button type="submit" className="w-full rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700">
              {t('actions.calculate')}
            </button>
          )}
        </div>

        <div className="space-y-6 lg:sticky lg:top-4 lg:self-start print:grid print:grid-cols-2 print:gap-3 print:space-y-0" aria-live="polite">
          <div className="no-print">
            <SignInPrompt messageKey="signIn.save" />
          </div>
          <Results evaluation={evaluation} />
          <div className="no-print flex flex-wrap gap-2">
            <Link to="/calculator" className={secondaryButton}>
              <RotateCcw aria-hidden="true" className="h-4 w-4" />
              {t('actions.reset')}
            </Link>
            <button type="submit" formAction="/calculator/export" formMethod="get" className={secondaryButton}>
              <Download aria-hidden="true" className="h-4 w-4" />
              {t('actions.export')}
            </button>
            {hydrated ? (
              <button type="button" onClick={() => window.print()} className={secondaryButton}>
                <Printer aria-hidden="true" className="h-4 w-4" />
                {t('actions.print')}
              </button>
            ) : (
              <p className="w-full text-xs text-ink-faint">{t('actions.printHint')}</p>
            )}
          </div>
        </div>
      </form>
      {/* The no-JS slicer import posts the file (its input sits in 'Projekt-Grunddaten') with the current texts. */}
      <form id={SLICER_FORM_ID} method="post" encType="multipart/form-data" action="/calculator" hidden>
        {calculatorFieldNames.map((name) => (
          <input key={name} type="hidden" name={name} value={initial.values[name]} />
        ))}
      </form>
      <HelpSection />
    </main>
  );
}

const secondaryButton =
  'inline-flex items-center gap-1.5 rounded-md border border-surface-line bg-surface px-3 py-2 text-sm font-medium text-ink hover:bg-surface-subtle';

function Results({ evaluation }: { evaluation: CalculatorEvaluation }) {
  const { t } = useTranslation('calculator');
  if (evaluation.status === 'invalid') {
    return (
      <Card>
        <p id="calculator-status" role="alert" className="text-sm text-danger-700">
          {t('results.invalid')}
        </p>
      </Card>
    );
  }
  if (evaluation.status === 'impossible') {
    return (
      <Card title={t('results.impossibleTitle')} titleId="impossible-title" className="border-danger-600">
        <p id="calculator-status" role="alert" data-result-impossible className="text-sm text-danger-700">
          {t('results.impossible')}
        </p>
      </Card>
    );
  }
  const props = {
    result: evaluation.result,
    quantity: evaluation.input.quantity,
    vatPercent: evaluation.input.vatPercent,
    smallBusiness: evaluation.input.smallBusiness ?? false,
    targetPrice: evaluation.input.targetPrice,
  };
  return (
    <>
      <CostOverview result={evaluation.result} failureRate={evaluation.input.failureRate ?? 0} />
      <MinimumPriceCard {...props} />
      <TargetPriceCard {...props} />
      <MultiPieceCard {...props} />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.meta.title },
  { name: 'description', content: data?.meta.description },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
