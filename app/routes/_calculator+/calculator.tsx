import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useLocation, useNavigation, useRouteLoaderData } from '@remix-run/react';
import { Download, Printer, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { evaluateCalculator, type CalculatorEvaluation } from '~/calculator/evaluate';
import {
  calculatorFieldNames,
  fieldViews,
  rawValuesFromSearchParams,
  rawValuesToSearchParams,
  type CalculatorFieldName,
  type CalculatorRawValues,
  type FieldView,
} from '~/calculator/fields';
import { loadLiveCalculator, type LiveCalculator } from '~/calculator/live';
import { FieldSection } from '~/components/calculator/calculator-form-fields';
import { CostOverview } from '~/components/calculator/cost-overview';
import { DetailedCosts } from '~/components/calculator/detailed-costs';
import { HelpSection } from '~/components/calculator/help-section';
import { LibraryPickers } from '~/components/calculator/library-pickers';
import { MinimumPriceCard, MultiPieceCard, TargetPriceCard } from '~/components/calculator/price-cards';
import { PrintSheetHeader } from '~/components/calculator/print-sheet';
import { SignInPrompt } from '~/components/calculator/sign-in-prompt';
import { SLICER_FORM_ID, SlicerImport, type SlicerNoticeView } from '~/components/calculator/slicer-import';
import { StickySummary } from '~/components/calculator/sticky-summary';
import { showToast } from '~/components/toaster';
import { Card } from '~/components/ui/card';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { getServerT } from '~/i18n.server';
import { calculatorPickerState, type PickerState } from '~/models/calculator-pickers.server';
import { importSlicerFile } from '~/models/slicer-import.server';
import { getRequestContext } from '~/services/request-context.server';
import { importedFieldValues, importInfoFromSummary, importNoticeFromParams, importNoticeToParams, type SlicerImportNotice } from '~/slicer/import-link';
import { buildImportView } from '~/slicer/import-view';
import type { loader as rootLoader } from '~/root';
import { redirectWithToast } from '~/utils/toast.server';
import { useHydrated } from '~/utils/use-hydrated';
import { publicPageHeaders } from '~/utils/http-cache';

// For a visitor the page depends only on the address and the consent cookie (visitor-page-cache.server.ts).
export const handle = { i18n: ['calculator', 'pickers'] };
// Shared for visitors (sessions are made private by the server): app/utils/http-cache.ts.
export const headers = publicPageHeaders;

/**
 * The whole calculation is a GET: `/calculator?<fields>` is validated and
 * calculated here on the server (bookmarkable, shareable, works without JS).
 * In the browser the same schema and engine (~/calculator/evaluate) recompute
 * on every keystroke; that chunk is fetched when the visitor first reaches for
 * the form, so a first visit downloads less JavaScript.
 */
export async function loader(args: LoaderFunctionArgs) {
  const params = new URL(args.request.url).searchParams;
  const t = await getServerT('calculator');
  // The reset link: back to the defaults with the spec's toast (a flash cookie, so it shows without JS).
  if (params.has(RESET_PARAM)) return redirectWithToast('/calculator', { title: t('toast.reset') });
  const values = rawValuesFromSearchParams(params);
  const ctx = await getRequestContext(args);
  // Signed-in users get the library pickers; `?apply=<picker>` (no JS) redirects to the filled address.
  let pickers: PickerState | null = null;
  if (ctx.user) {
    const outcome = await calculatorPickerState({ em: ctx.em, user: ctx.user }, params, values);
    if ('redirectTo' in outcome) throw redirect(outcome.redirectTo);
    pickers = outcome.state;
  }
  return {
    values,
    pickers,
    fields: fieldViews,
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
export async function action(args: ActionFunctionArgs) {
  const ctx = await getRequestContext(args);
  const result = await importSlicerFile({ em: ctx.em, ip: ctx.ip }, args.request);
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
  const { values, evaluation, fields, pickers, slicerNotice } = useLoaderData<typeof loader>();
  const location = useLocation();
  // A navigation (reset, a shared link) remounts the form with the loader's texts.
  return (
    <Calculator key={location.key} initial={{ values, evaluation }} fields={fields as readonly FieldView[]} pickers={pickers} slicerNotice={slicerNotice} />
  );
}

const URL_SYNC_DELAY_MS = 200;
const RESET_PARAM = 'zuruecksetzen';

type ValidEvaluation = Exclude<CalculatorEvaluation, { status: 'invalid' }>;
type CalculatorState = {
  values: CalculatorRawValues;
  evaluation: CalculatorEvaluation;
  /** The results shown while a field is half-typed ("0," on the way to "0,35"). */
  lastValid: ValidEvaluation | null;
};

function Calculator({
  initial,
  fields,
  pickers,
  slicerNotice,
}: {
  initial: Omit<CalculatorState, 'lastValid'>;
  fields: readonly FieldView[];
  pickers: PickerState | null;
  slicerNotice: SlicerNoticeView | null;
}) {
  const { t } = useTranslation('calculator');
  const hydrated = useHydrated();
  const user = useRouteLoaderData<typeof rootLoader>('root')?.user ?? null;
  const [{ values, evaluation, lastValid }, setState] = useState<CalculatorState>(() => ({
    ...initial,
    lastValid: initial.evaluation.status === 'invalid' ? null : initial.evaluation,
  }));
  const [focused, setFocused] = useState<CalculatorFieldName | null>(null);
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
  const allErrors = evaluation.status === 'invalid' ? evaluation.errors : {};

  // Issue 8 §2: while the focused field is the only one in error and more typing can still
  // make it valid, keep the last valid results (dimmed) and show the field's hint instead.
  const typing =
    focused !== null &&
    lastValid !== null &&
    evaluation.status === 'invalid' &&
    Object.keys(allErrors).every((name) => name === focused || (name === 'printTimeHours' && focused === 'printTimeMinutes')) &&
    // An invalid evaluation in the browser came from the live chunk, so it is loaded here.
    live.current !== null &&
    live.current.canStillBecomeValid(focused, values[focused])
      ? focused
      : null;
  const errors = typing ? {} : allErrors;
  const shown: CalculatorEvaluation = typing && lastValid ? lastValid : evaluation;

  function preloadLiveCalculator() {
    void loadLiveCalculator().then((module) => (live.current = module));
  }

  async function onFormInput(event: React.FormEvent<HTMLFormElement>) {
    // Read before awaiting: React clears currentTarget once the handler yields.
    const data = new FormData(event.currentTarget);
    const calculator = live.current ?? (live.current = await loadLiveCalculator());
    if (!settled.current) return;
    const next = calculator.rawValuesFromSearchParams(data);
    const nextEvaluation = calculator.evaluateCalculator(next);
    setState((previous) => ({
      values: next,
      evaluation: nextEvaluation,
      lastValid: nextEvaluation.status === 'invalid' ? previous.lastValid : nextEvaluation,
    }));
    // Keep the address shareable without a navigation or a history entry per keystroke.
    // Debounced: replaceState is slow-ish and browsers throttle frequent calls.
    const query = calculator.rawValuesToSearchParams(next);
    window.clearTimeout(urlTimer.current);
    urlTimer.current = window.setTimeout(() => {
      // The hash is read late: a jump to #ergebnis in between must survive.
      const url = `${window.location.pathname}?${query}${window.location.hash}`;
      if (settled.current) window.history.replaceState(window.history.state, '', url);
    }, URL_SYNC_DELAY_MS);
  }

  // Stable across renders (reads the ref), so the memoised sections keep it.
  const stepField = useRef(async (input: HTMLInputElement, direction: 1 | -1) => {
    const calculator = live.current ?? (live.current = await loadLiveCalculator());
    const next = calculator.stepFieldText(input.name, input.value, direction);
    if (next === null) return;
    input.value = next;
    // Let the form's input handler see the new value like a typed one.
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }).current;

  function onFormFocus(event: React.FocusEvent<HTMLFormElement>) {
    preloadLiveCalculator();
    const name = (event.target as unknown as HTMLInputElement).name;
    setFocused(name && name in values ? (name as CalculatorFieldName) : null);
  }

  async function exportInBrowser() {
    // Spec §7: the export is local, no server call; the same pure builder as the no-JS route.
    const { downloadCalculatorExport } = await import('~/calculator/export');
    if (downloadCalculatorExport(values, t('export.filePrefix'))) showToast({ type: 'success', title: t('toast.exported') });
    else showToast({ type: 'error', title: t('toast.exportInvalid') });
  }

  function onFormSubmit(event: React.FormEvent<HTMLFormElement>) {
    // Results are already live; the export is built here in the browser.
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter?.hasAttribute('formaction')) void exportInBrowser();
  }

  function onPrint() {
    showToast({ type: 'success', title: t('toast.printed') });
    // Let the toast render before the print dialog blocks the page.
    window.setTimeout(() => window.print(), 50);
  }

  const sectionProps = { fields, values: initial.values, errors, typing, onStep: stepField };
  const signedIn = user !== null;
  const sellerName = user ? [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email : null;

  return (
    <main className="mx-auto max-w-page px-4 py-6 sm:py-8">
      <PrintSheetHeader fields={fields} values={values} evaluation={shown} sellerName={sellerName} />
      <div className="no-print mb-6">
        <h1 className="text-2xl font-bold sm:text-3xl">{t('heading')}</h1>
        <p className="mt-1 text-ink-muted">{t('intro')}</p>
      </div>
      <form
        id="calculator-form"
        method="get"
        // Without JS, "Berechnen" reloads the page scrolled to the results (issue 8 §3).
        action="/calculator#ergebnis"
        noValidate
        onInput={onFormInput}
        onFocus={onFormFocus}
        onBlur={() => setFocused(null)}
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
                <SignInPrompt messageKey="imageUpload" signedIn={signedIn} />
              </div>
            }
          />
          <FieldSection section="pricing" {...sectionProps} />
          <FieldSection
            section="printerFilament"
            {...sectionProps}
            before={pickers ? <LibraryPickers section="printerFilament" state={pickers} /> : <SignInPrompt messageKey="pickers" signedIn={signedIn} />}
          />
          <FieldSection section="packagingShipping" {...sectionProps} before={pickers ? <LibraryPickers section="packagingShipping" state={pickers} /> : null} />
          <FieldSection section="marketplace" {...sectionProps} before={pickers ? <LibraryPickers section="marketplace" state={pickers} /> : null} />
          <DetailedCosts costs={shown.status === 'ok' ? shown.result : shown.status === 'impossible' ? shown.partial : null} />
          <FieldSection section="labor" {...sectionProps} />
          {hydrated ? null : (
            <button type="submit" className="w-full rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700">
              {t('actions.calculate')}
            </button>
          )}
          <StickySummary evaluation={shown} stale={typing !== null} />
        </div>

        <div
          id="ergebnis"
          className="scroll-mt-4 space-y-6 lg:sticky lg:top-4 lg:self-start print:grid print:grid-cols-2 print:gap-3 print:space-y-0"
          aria-live="polite"
        >
          <div className="no-print">
            <SignInPrompt messageKey="save" signedIn={signedIn} />
          </div>
          {typing ? (
            <p role="status" data-typing-note className="no-print rounded-md bg-surface-subtle px-3 py-2 text-sm text-ink-muted">
              {t('results.typing', { field: t(`fields.${typing}.label`) })}
            </p>
          ) : null}
          <div data-stale={typing ? true : undefined} className={typing ? 'space-y-6 opacity-50 transition-opacity' : 'contents'}>
            <Results evaluation={shown} />
          </div>
          <div className="no-print flex flex-wrap gap-2">
            <Link to={`/calculator?${RESET_PARAM}=1`} className={secondaryButton}>
              <RotateCcw aria-hidden="true" className="h-4 w-4" />
              {t('actions.reset')}
            </Link>
            <button type="submit" formAction="/calculator/export" formMethod="get" className={secondaryButton}>
              <Download aria-hidden="true" className="h-4 w-4" />
              {t('actions.export')}
            </button>
            {hydrated ? (
              <button type="button" onClick={onPrint} className={secondaryButton}>
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
        {/* The field list from the page data, not the field table: keeps the table out of the first visit's JavaScript. */}
        {fields.map(({ name }) => (
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
  // The print sheet shows no empty target-price card.
  return (
    <>
      <CostOverview result={evaluation.result} failureRate={evaluation.input.failureRate ?? 0} />
      <MinimumPriceCard {...props} />
      <div className={props.targetPrice > 0 ? 'contents' : 'contents print:hidden'}>
        <TargetPriceCard {...props} />
      </div>
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
