import type { ProjectUsage } from '~/domain/projects';
import { Link, useLocation, useNavigation, useSubmit } from '@remix-run/react';
import { Download, Printer, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { changedSinceRendered } from '~/lib/form-changes';
import { useTranslation } from 'react-i18next';
import type { CalculatorEvaluation } from '~/calculator/evaluate';
import type { CalculatorFieldName, CalculatorRawValues, FieldView } from '~/calculator/fields';
import { linkQuery } from '~/calculator/link';
import { loadLiveCalculator, type LiveCalculator } from '~/calculator/live';
import { PROJECT_PARAM, QUOTE_INTENT, RESET_PARAM, SAVE_INTENT, WORKED_EXAMPLE_PARAM, type SaveError } from '~/calculator/page';
import type { PickerState } from '~/calculator/pickers';
import type { FilamentLinesState } from '~/calculator/filament-line-actions';
import { lazyPart } from '~/lib/lazy-part';
import { useHydrated } from '~/lib/use-hydrated';
import type { SlicerNoticeView } from '~/slicer/import-view';
import { AdSlot } from '../ads/ad-slot';
import { showToast } from '../toaster';
import { Card } from '../ui/card';
import { FieldSection } from './calculator-form-fields';
import { FilamentCostLines, FilamentLines, filamentLineNames } from './filament-lines';
import { CostOverview } from './cost-overview';
import { DetailedCosts } from './detailed-costs';
import { HelpSection } from './help-section';
import { MinimumPriceCard, MultiPieceCard, TargetPriceCard } from './price-cards';
import { PrintSheetHeader } from './print-sheet';
import { ProjectHiddenFields } from './project-fields';
import { SignInPrompt } from './sign-in-prompt';
import { SlicerImport } from './slicer-import';
import { StickySummary } from './sticky-summary';

/**
 * The calculator page (/calculator): the form, live results, the print sheet
 * and the signed-in parts. The route (routes/_calculator+/calculator.tsx)
 * hands it what its loader and action said; with scripts every keystroke is
 * recomputed in the browser by the lazily loaded live chunk (~/calculator/live).
 */

/** What the form knows about the opened project and the last post. */
export type ProjectState = {
  id: string | null;
  hidden: Record<string, string>;
  notFound: boolean;
  unsaved: boolean;
  saveError: SaveError | null;
  fieldErrors: Record<string, string>;
  imageError: string | null;
  /** Issue 24 §4: a free user's '2 von 3 Projekten' at the save button; null for Premium and visitors. */
  usage?: ProjectUsage | null;
};

/** The signed-in user as the calculator needs them. */
export type CalculatorUser = { email: string; firstName?: string | null; lastName?: string | null };

const URL_SYNC_DELAY_MS = 200;


// The pickers, the product image field and the save panel: never in a visitor's JavaScript (lib/lazy-part.ts).
const SignedInPart = lazyPart(() => import('./signed-in-parts'), '[data-save-project]');

type ValidEvaluation = Exclude<CalculatorEvaluation, { status: 'invalid' }>;
type CalculatorViewState = {
  values: CalculatorRawValues;
  evaluation: CalculatorEvaluation;
  /** The results shown while a field is half-typed ("0," on the way to "0,35"). */
  lastValid: ValidEvaluation | null;
};

export function Calculator({
  initial,
  fields,
  project,
  pickers,
  filamentLines,
  submitted,
  slicerNotice,
  user,
  sellerName: loadedSellerName = null,
}: {
  initial: Omit<CalculatorViewState, 'lastValid'>;
  fields: readonly FieldView[];
  project: ProjectState;
  pickers: PickerState | null;
  filamentLines: FilamentLinesState;
  /** The hidden fields of a refused save (no JS): the pickers show what was submitted. */
  submitted: Record<string, string> | undefined;
  slicerNotice: SlicerNoticeView | null;
  /** The signed-in user (from the root loader), for the print sheet's seller and the signed-in parts. */
  user: CalculatorUser | null;
  /** The print sheet's seller (the loader's: business name, else the person); null for visitors. */
  sellerName?: string | null;
}) {
  const { t } = useTranslation('calculator');
  const submit = useSubmit();
  const navigation = useNavigation();
  const saving = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post' && [SAVE_INTENT, QUOTE_INTENT].some((intent) => navigation.formData?.get('intent') === intent);
  const hydrated = useHydrated();
  // Opened from the landing's worked example: one line on why the figures differ (issue 24 §2).
  const fromExample = new URLSearchParams(useLocation().search).get(WORKED_EXAMPLE_PARAM) === '1';
  const [{ values, evaluation, lastValid }, setState] = useState<CalculatorViewState>(() => ({
    ...initial,
    lastValid: initial.evaluation.status === 'invalid' ? null : initial.evaluation,
  }));
  const [focused, setFocused] = useState<CalculatorFieldName | null>(null);
  // Issue 23: each line's library filament (selectedFilament, selectedFilament2…), so the results name the line by it.
  const [lineIds, setLineIds] = useState<string[]>(() => [submitted?.selectedFilament ?? pickers?.selected.filament ?? '', ...filamentLines.ids]);
  const libraryNames = lineIds.map((id) => (id ? pickers?.items.filament.find((item) => item.id === id)?.name : undefined));
  // Issue 24 §2: an opened project edited in the browser (typing, a picker, a slicer file) says
  // 'Ungespeicherte Änderungen' as the server does for an edited address. Compared as the link's texts.
  const [edited, setEdited] = useState(false);
  const savedQuery = useRef<string | null>(null);
  // The opened project's form as rendered, read the same way as every edit is.
  const savedForm = useRef<FormData | null>(null);
  const live = useRef<LiveCalculator | null>(null);
  const urlTimer = useRef<number>(undefined);
  // A navigation (reset, another link) must not be overwritten by a pending address update:
  // neither by one already scheduled (cancelled when the navigation starts, and on unmount)
  // nor by one scheduled later by an input that was still waiting for the live-calculation chunk.
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
  const allErrors = { ...(evaluation.status === 'invalid' ? evaluation.errors : {}), ...(project.fieldErrors as Partial<Record<CalculatorFieldName, string>>) };

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
  // Issue 24 §2: an input that is wrong (not merely half typed) keeps the last valid results too,
  // dimmed under the 'Bitte korrigieren Sie…' hint at the top of the column, instead of emptying
  // the column and putting the hint far below. Only with scripts: the server has no last result.
  // The print sheet keeps printing no figures for a wrong input.
  const held = typing === null && evaluation.status === 'invalid' && lastValid !== null;
  const displayed: CalculatorEvaluation = held && lastValid ? lastValid : shown;

  // Typed (or ticked, unticked, chosen) before the scripts ran (a slow phone, a fast typist): once
  // hydrated, the results catch up with what the form holds instead of waiting for the next
  // keystroke. Each control is compared with its markup default, so an unticked box counts too
  // (it is missing from FormData). The live chunk is only fetched when something changed.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    savedForm.current = new FormData(form);
    if (changedSinceRendered(form)) form.dispatchEvent(new Event('input', { bubbles: true }));
  }, []);

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
    if (pickers) setLineIds((ids) => calculator.filamentLineIds(data, ids[0]));
    setState((previous) => ({
      values: next,
      evaluation: nextEvaluation,
      lastValid: nextEvaluation.status === 'invalid' ? previous.lastValid : nextEvaluation,
    }));
    // Keep the address shareable without a navigation or a history entry per keystroke.
    // Debounced: replaceState is slow-ish and browsers throttle frequent calls.
    const query = calculator.rawValuesToSearchParams(next);
    if (project.id && !project.unsaved && savedForm.current) {
      savedQuery.current ??= calculator.rawValuesToSearchParams(calculator.rawValuesFromSearchParams(savedForm.current)).toString();
      setEdited(query.toString() !== savedQuery.current);
    }
    // An opened project stays in the address; its edited fields win over the saved ones (a shareable draft).
    if (project.id) query.set(PROJECT_PARAM, project.id);
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
    const intent = submitter?.getAttribute('value');
    // 'Angebot erstellen' of an unsaved calculation saves the same way, then goes on to the new quote (issue 26).
    if (intent === SAVE_INTENT || intent === QUOTE_INTENT) {
      const form = new FormData(event.currentTarget);
      form.set('intent', intent);
      // The image went up already (its path is in the form); the file input's content is not part of a save.
      form.delete('image');
      // The seller stays where they saved (often far down on a phone), as without scripts (#projekt-speichern).
      submit(form, { method: 'post', action: '/calculator', preventScrollReset: intent === SAVE_INTENT });
      return;
    }
    if (submitter?.hasAttribute('formaction')) void exportInBrowser();
  }

  function onPrint() {
    showToast({ type: 'success', title: t('toast.printed') });
    // Let the toast render before the print dialog blocks the page.
    window.setTimeout(() => window.print(), 50);
  }

  // The print sheet's 'Verwendet' names every filament line (issue 23) by its library name or label.
  const sheetFilaments = shown.status === 'invalid' ? [] : (shown.input.filaments ?? []);
  const sheetLineNames = sheetFilaments.length > 1 ? filamentLineNames(values, libraryNames) : [];
  const sheetFilamentLines = sheetFilaments.length > 1 ? sheetFilaments.map((line, index) => ({ name: sheetLineNames[index] ?? '', grams: line.grams })) : [];
  const sectionProps = { fields, values: initial.values, errors, typing, onStep: stepField };
  const signedIn = user !== null;
  const sellerName = user ? loadedSellerName || [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email : null;

  return (
    <main className="mx-auto max-w-page px-4 py-6 sm:py-8">
      <PrintSheetHeader
        fields={fields}
        values={values}
        evaluation={shown}
        sellerName={sellerName}
        usedItems={
          signedIn ? (
            <SignedInPart
              part="printUsed"
              pickers={pickers}
              imagePath={(submitted ?? project.hidden).productImagePath ?? ''}
              submitted={submitted}
              projectName={values.projectName}
              filamentLines={sheetFilamentLines}
            />
          ) : null
        }
        filamentRows={shown.status === 'invalid' ? null : <FilamentCostLines lines={shown.input.filaments} values={values} libraryNames={libraryNames} perKg />}
      />
      <div className="no-print mb-6">
        <h1 className="text-2xl font-bold sm:text-3xl">{t('heading')}</h1>
        <p className="mt-1 text-ink-muted">{t('intro')}</p>
        {fromExample ? (
          <p data-example-fees-note className="mt-3 rounded-md border border-brand-200 bg-brand-50 px-3 py-2 text-sm text-ink">
            {t('exampleFeesNote')}
          </p>
        ) : null}
      </div>
      <form
        ref={formRef}
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
        className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]"
      >
        <div className="no-print space-y-6">
          {project.notFound ? (
            <p role="alert" data-project-not-found className="rounded-md border border-danger-600/40 bg-danger-50 px-3 py-2.5 text-sm text-danger-700">
              {t('projects:calculator.notFound')}
            </p>
          ) : null}
          <ProjectHiddenFields projectId={project.id} hidden={pickers ? {} : project.hidden} />
          <FieldSection
            section="basics"
            {...sectionProps}
            after={
              <div className="space-y-4">
                <SlicerImport initial={slicerNotice} library={pickers?.items.filament ?? null} />
                {signedIn ? (
                  <SignedInPart part="image" initialPath={project.hidden.productImagePath ?? ''} serverError={project.imageError} />
                ) : (
                  <SignInPrompt messageKey="imageUpload" signedIn={false} />
                )}
              </div>
            }
          />
          <FieldSection section="pricing" {...sectionProps} />
          <FieldSection
            section="printerFilament"
            {...sectionProps}
            before={pickers ? <SignedInPart part="pickers" section="printerFilament" state={pickers} submitted={submitted} /> : <SignInPrompt messageKey="pickers" signedIn={false} />}
            after={
              <FilamentLines
                values={initial.values}
                errors={errors}
                state={filamentLines}
                filaments={pickers?.items.filament ?? null}
                picker={(props) => <SignedInPart part="linePicker" {...props} />}
              />
            }
          />
          <FieldSection
            section="packagingShipping"
            {...sectionProps}
            before={pickers ? <SignedInPart part="pickers" section="packagingShipping" state={pickers} submitted={submitted} /> : null}
          />
          <AdSlot position="calculator-left" />
          <FieldSection
            section="marketplace"
            {...sectionProps}
            before={pickers ? <SignedInPart part="pickers" section="marketplace" state={pickers} submitted={submitted} /> : null}
          />
          <DetailedCosts costs={shown.status === 'ok' ? shown.result : shown.status === 'impossible' ? shown.partial : null} />
          <FieldSection section="labor" {...sectionProps} />
          {hydrated ? null : (
            <button type="submit" className="w-full rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700">
              {t('actions.calculate')}
            </button>
          )}
          <StickySummary evaluation={displayed} stale={typing !== null || held} action={signedIn ? <SignedInPart part="saveBar" saved={project.id !== null} saving={saving} /> : null} />
        </div>

        <div
          id="ergebnis"
          className="scroll-mt-4 space-y-6 lg:sticky lg:top-4 lg:self-start print:grid print:grid-cols-2 print:gap-3 print:space-y-0"
          aria-live="polite"
        >
          {held ? (
            <p id="calculator-status" role="alert" data-results-held className="no-print rounded-md border border-danger-600/40 bg-danger-50 px-3 py-2 text-sm text-danger-700">
              {t('results.invalid')}
            </p>
          ) : null}
          <div className="no-print">
            {signedIn ? (
              <SignedInPart part="save" saved={project.id !== null} saving={saving} unsaved={project.unsaved || edited} error={project.saveError} projectId={project.id} usage={project.usage ?? null} />
            ) : (
              <SignInPrompt messageKey="save" signedIn={false} returnTo={`/calculator?${linkQuery(fields, values)}`} />
            )}
          </div>
          {typing ? (
            <p role="status" data-typing-note className="no-print rounded-md bg-surface-subtle px-3 py-2 text-sm text-ink-muted">
              {/* A line 2… field (filamentWeight3) is named by its line-1 field. */}
              {t('results.typing', { field: t(`fields.${typing.replace(/\d+$/, '')}.label`) })}
            </p>
          ) : null}
          <div data-stale={typing || held ? true : undefined} className={typing ? 'space-y-6 opacity-50 transition-opacity' : held ? 'space-y-6 opacity-50 transition-opacity print:hidden' : 'contents'}>
            <Results evaluation={displayed} values={values} libraryNames={libraryNames} />
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
              <p className="w-full text-xs text-ink-faint" data-print-hint>
                {t('actions.printHint')}
                {/* The shortcut only where there is a keyboard: wide screens with a mouse, never phones (CSS, so it holds without scripts). */}
                <span className="hidden lg:pointer-fine:inline"> {t('actions.printHintKeys')}</span>
              </p>
            )}
          </div>
          <AdSlot position="calculator-sidebar" />
        </div>
      </form>
      <HelpSection />
      <AdSlot position="calculator-below" />
    </main>
  );
}

const secondaryButton =
  'inline-flex items-center gap-1.5 rounded-md border border-surface-line bg-surface px-3 py-2 text-sm font-medium text-ink hover:bg-surface-subtle';

function Results({ evaluation, values, libraryNames }: { evaluation: CalculatorEvaluation; values: CalculatorRawValues; libraryNames: ReadonlyArray<string | undefined> }) {
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
      <CostOverview
        result={evaluation.result}
        failureRate={evaluation.input.failureRate ?? 0}
        filamentDetail={<FilamentCostLines lines={evaluation.input.filaments} values={values} libraryNames={libraryNames} quantity={evaluation.input.quantity} failureRate={evaluation.input.failureRate ?? 0} />}
      />
      <MinimumPriceCard {...props} />
      <div className={props.targetPrice > 0 ? 'contents' : 'contents print:hidden'}>
        <TargetPriceCard {...props} />
      </div>
      <MultiPieceCard {...props} />
    </>
  );
}
