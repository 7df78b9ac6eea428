import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useLocation, useNavigation, useRouteLoaderData, useSubmit } from '@remix-run/react';
import { Download, Printer, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { evaluateCalculator, type CalculatorEvaluation } from '~/calculator/evaluate';
import {
  fieldViews,
  lineTextsOf,
  rawValuesFromSearchParams,
  rawValuesToSearchParams,
  type CalculatorFieldName,
  type CalculatorRawValues,
  type FieldView,
} from '~/calculator/fields';
import { linkQuery } from '~/calculator/link';
import { loadLiveCalculator, type LiveCalculator } from '~/calculator/live';
import { FieldSection } from '~/components/calculator/calculator-form-fields';
import { CostOverview } from '~/components/calculator/cost-overview';
import { FilamentCostLines, FilamentLines } from '~/components/calculator/filament-lines';
import { filamentLinesState, lineActionRedirect, type FilamentLinesState } from '~/calculator/filament-line-actions';
import { DetailedCosts } from '~/components/calculator/detailed-costs';
import { HelpSection } from '~/components/calculator/help-section';
import { MinimumPriceCard, MultiPieceCard, TargetPriceCard } from '~/components/calculator/price-cards';
import { PrintSheetHeader } from '~/components/calculator/print-sheet';
import { ProjectHiddenFields, SAVE_INTENT, type SaveError } from '~/components/calculator/project-fields';
import { SignInPrompt } from '~/components/calculator/sign-in-prompt';
import { SlicerImport } from '~/components/calculator/slicer-import';
import type { SlicerNoticeView } from '~/slicer/import-view';
import { StickySummary } from '~/components/calculator/sticky-summary';
import { showToast } from '~/components/toaster';
import { Card } from '~/components/ui/card';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { getServerT } from '~/i18n.server';
import { readFormData } from '~/web/form-data.server';
import { BODY_TOO_LARGE_MESSAGE, FORM_BODY_LIMIT } from '~/server/request-guard.server';
import { buildImportView } from '~/slicer/import-view';
import { importNoticeFromParams } from '~/slicer/import-link';
import type { loader as rootLoader } from '~/root';
import { HIDDEN_PROJECT_FIELDS, openProject, saveCalculatorProject } from '~/models/calculator-projects.server';
import { releaseProductImage, uploadProductImage } from '~/models/product-images.server';
import { readImageForm } from '~/web/image-upload.server';
import type { PickerState } from '~/calculator/pickers';
import { calculatorPickerState } from '~/models/calculator-pickers.server';
import { getRequestContext } from '~/services/auth.server';
import { LAZY_PARTS, partPreloads } from '~/server/part-preloads.server';
import type { UserContext } from '~/services/request-context.server';
import { redirectWithToast } from '~/web/toast.server';
import { lazyPart } from '~/lib/lazy-part';
import { useHydrated } from '~/lib/use-hydrated';
import { publicPageHeaders } from '~/server/http-cache';

// For a visitor the page depends only on the address and the consent cookie (visitor-page-cache.server.ts).
export const handle = { i18n: ['calculator', 'pickers', 'projects', 'filament-lines'] };
// Shared for visitors (sessions are made private by the server): app/server/http-cache.ts.
// Visitors never reach the database here: `?project=` is read only for a signed-in user.
export const headers = publicPageHeaders;

/**
 * The whole calculation is a GET: `/calculator?<fields>` is validated and
 * calculated here on the server (bookmarkable, shareable, works without JS).
 * In the browser the same schema and engine (~/calculator/evaluate) recompute
 * on every keystroke; that chunk is fetched when the visitor first reaches for
 * the form, so a first visit downloads less JavaScript.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { request } = args;
  const params = new URL(request.url).searchParams;
  const t = await getServerT('calculator');
  // The reset link: back to the defaults with the spec's toast (a flash cookie, so it shows without JS).
  if (params.has(RESET_PARAM)) return redirectWithToast('/calculator', { title: t('toast.reset') });
  let values = rawValuesFromSearchParams(params);
  let project: { id: string; name: string } | null = null;
  let hidden: Record<string, string> = {};
  let projectNotFound = false;
  let unsaved = false;
  const projectId = params.get(PROJECT_PARAM);
  const ctx = await getRequestContext(args);
  // Spec §4: a project loads by the address only for a signed-in user (visitors see the plain calculator).
  if (projectId !== null && ctx.user) {
    const opened = await openProject(ctx as UserContext, projectId, params, values);
    ({ values, hidden, project, unsaved } = opened);
    projectNotFound = opened.notFound;
  }
  // Signed-in users get the library pickers; `?apply=<picker>` (no JS) redirects to the filled address.
  let pickers: PickerState | null = null;
  if (ctx.user) {
    // A reopened project's library references preselect the pickers unless the address names others.
    const pickerParams = new URLSearchParams(params);
    for (const [name, value] of Object.entries(hidden)) if (name.startsWith('selected') && !pickerParams.has(name)) pickerParams.set(name, value);
    const outcome = await calculatorPickerState({ em: ctx.em, user: ctx.user }, pickerParams, values);
    if ('redirectTo' in outcome) {
      // The applied values stay a draft of the opened project.
      throw redirect(project ? `${outcome.redirectTo}&${PROJECT_PARAM}=${project.id}` : outcome.redirectTo);
    }
    pickers = outcome.state;
  }
  // Issue 23: 'Filament hinzufügen' / 'Entfernen' / a line's 'Übernehmen' without JS.
  const lineRedirect = lineActionRedirect(params, pickers?.items.filament ?? null);
  if (lineRedirect) throw redirect(lineRedirect);
  return {
    values,
    fields: fieldViews,
    evaluation: evaluateCalculator(values),
    project,
    hidden,
    projectNotFound,
    unsaved,
    pickers,
    filamentLines: filamentLinesState(params, hidden, lineTextsOf(values).length, pickers?.items.filament ?? null),
    slicerNotice: slicerNoticeView(params, t),
    // The signed-in parts are a chunk of their own: fetched with the page's scripts (root.tsx).
    partPreloads: ctx.user ? partPreloads(LAZY_PARTS.calculatorSignedIn) : [],
    meta: { title: t('meta.title'), description: t('meta.description') },
  };
}

function slicerNoticeView(params: URLSearchParams, t: (key: string, options?: Record<string, unknown>) => string): SlicerNoticeView | null {
  const notice = importNoticeFromParams(params);
  if (notice?.kind !== 'info') return notice;
  return { ...notice, view: buildImportView(notice.info, t, `?${params}`) };
}

/**
 * POST /calculator with `intent=save`: the save button of the calculator form
 * (with JavaScript through fetch, without as a plain form post). Success goes to
 * `/calculator?project=<id>` with the §8 toast; a refusal comes back with every
 * input as typed and the message next to the button (and the field).
 */
export async function action(args: ActionFunctionArgs) {
  const t = await getServerT('projects');
  // The no-JS image upload posts the whole form as multipart (with the file); everything else is urlencoded.
  const multipart = args.request.headers.get('content-type')?.toLowerCase().startsWith('multipart/form-data') ?? false;
  const upload = multipart ? await readImageForm(args.request) : null;
  const form = upload ? (upload.form ?? new FormData()) : await readFormData(args.request);
  const fields: Record<string, string> = {};
  let textBytes = 0;
  for (const [name, value] of form) {
    if (typeof value !== 'string') continue;
    fields[name] = value;
    textBytes += name.length + value.length;
  }
  // Only the image may be large: the texts of a multipart body get the form limit (the guard
  // already holds urlencoded bodies to it), and nothing of an oversized body is echoed.
  if (textBytes > FORM_BODY_LIMIT) {
    throw new Response(BODY_TOO_LARGE_MESSAGE, { status: 413, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
  }
  // What comes back is cut to what a field can hold: an over-long value gets its message, not an echo.
  const values = echoedValues(rawValuesFromSearchParams(form));
  const hidden = echoedValues(Object.fromEntries(Object.entries(fields).filter(([name]) => (HIDDEN_PROJECT_FIELDS as string[]).includes(name))));
  const projectField = fields[PROJECT_PARAM]?.slice(0, MAX_ECHOED_LENGTH) || null;
  const answer = (status: number, extra: { saveError?: SaveError; errors?: Record<string, string>; imageError?: string; hidden?: Record<string, string> } = {}) =>
    data(
      {
        saveError: extra.saveError ?? null,
        values,
        // Evaluated here, not in the browser: the schema and engine stay out of the first visit's JavaScript.
        evaluation: evaluateCalculator(values),
        hidden: extra.hidden ?? hidden,
        errors: extra.errors ?? {},
        projectId: projectField,
        imageError: extra.imageError ?? null,
      },
      { status },
    );
  const fail = (status: number, error: SaveError, errors: Record<string, string> = {}) => answer(status, { saveError: error, errors });

  const intent = fields.intent;
  if (intent !== SAVE_INTENT && intent !== UPLOAD_INTENT && intent !== REMOVE_IMAGE_INTENT) {
    return fail(400, { title: t('toast.saveError'), text: t('toast.saveErrorText') });
  }
  const ctx = await getRequestContext(args);
  if (!ctx.user) {
    if (intent !== SAVE_INTENT) return answer(401, { imageError: t('image.unauthorized') });
    return fail(401, {
      title: t('toast.signInRequired'),
      text: t('toast.signInRequiredText'),
      action: { label: t('calculator.signIn'), href: `/auth?${new URLSearchParams({ redirectTo: `/calculator?${rawValuesToSearchParams(values)}` })}` },
    });
  }
  if (intent === UPLOAD_INTENT) {
    if (!upload?.ok) return answer(upload?.error === 'tooLarge' ? 413 : 400, { imageError: t(upload?.error === 'tooLarge' ? 'image.tooLarge' : 'image.failed') });
    const uploaded = await uploadProductImage(ctx as UserContext, upload.bytes);
    if (uploaded.kind === 'rateLimited') return answer(429, { imageError: t('image.tooManyPending') });
    if (uploaded.kind !== 'ok') {
      const key = uploaded.kind === 'fieldErrors' ? uploaded.errors.image?.[0] : undefined;
      return answer(400, { imageError: key ? t(key) : t('image.failed') });
    }
    return answer(200, { hidden: { ...hidden, productImagePath: uploaded.value.imagePath } });
  }
  if (intent === REMOVE_IMAGE_INTENT) {
    // An upload no project shows is deleted now; a saved project's image goes when the project is saved without it.
    if (hidden.productImagePath) await releaseProductImage((ctx as UserContext).em, hidden.productImagePath, ctx.user.id);
    return answer(200, { hidden: { ...hidden, productImagePath: '' } });
  }
  const result = await saveCalculatorProject(ctx as UserContext, fields);
  if (result.kind === 'ok') {
    const { id, name, created } = result.value;
    return redirectWithToast(`/calculator?${PROJECT_PARAM}=${id}`, {
      title: t(created ? 'toast.saved' : 'toast.updated'),
      description: t(created ? 'toast.savedText' : 'toast.updatedText', { name }),
    });
  }
  if (result.kind === 'fieldErrors') {
    const errors = Object.fromEntries(Object.entries(result.errors).map(([name, keys]) => [name, keys[0]]));
    const nameMissing = errors.projectName === 'calculator:errors.projectNameRequired';
    return fail(
      400,
      nameMissing
        ? { title: t('toast.nameRequired'), text: t('toast.nameRequiredText') }
        : { title: t('toast.saveError'), text: t('toast.saveErrorText') },
      errors,
    );
  }
  if (result.kind === 'forbidden') {
    return fail(403, { title: t('limit.title'), text: t('limit.text'), action: { label: t('limit.upgrade'), href: '/premium' } });
  }
  // The project was deleted meanwhile (or never was the user's).
  return fail(404, { title: t('toast.saveError'), text: t('calculator.notFound') });
}

/** Longest text the action sends back per field: the longest rule is the project name's 200 characters. */
const MAX_ECHOED_LENGTH = 256;

function echoedValues<T extends Record<string, string>>(values: T): T {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, value.slice(0, MAX_ECHOED_LENGTH)])) as T;
}

export default function CalculatorPage() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  // A refused save shows the inputs as they were submitted (nothing typed is lost).
  const values = actionData?.values ?? loaded.values;
  const evaluation = actionData?.evaluation ?? loaded.evaluation;
  const project: ProjectState = {
    id: actionData ? (actionData.projectId ?? null) : (loaded.project?.id ?? null),
    hidden: actionData?.hidden ?? loaded.hidden,
    notFound: loaded.projectNotFound,
    unsaved: loaded.unsaved,
    saveError: actionData?.saveError ?? null,
    fieldErrors: actionData?.errors ?? {},
    imageError: actionData?.imageError ?? null,
  };
  // A navigation (reset, a shared link) or a refused save remounts the form with the server's texts.
  return (
    <Calculator
      key={`${location.key}-${actionData ? 'refused' : 'loaded'}`}
      initial={{ values, evaluation }}
      fields={loaded.fields as readonly FieldView[]}
      project={project}
      pickers={loaded.pickers as PickerState | null}
      filamentLines={loaded.filamentLines}
      submitted={actionData?.hidden}
      slicerNotice={loaded.slicerNotice}
    />
  );
}

type ProjectState = {
  id: string | null;
  hidden: Record<string, string>;
  notFound: boolean;
  unsaved: boolean;
  saveError: SaveError | null;
  fieldErrors: Record<string, string>;
  imageError: string | null;
};

const URL_SYNC_DELAY_MS = 200;
const RESET_PARAM = 'zuruecksetzen';
const PROJECT_PARAM = 'project';
const UPLOAD_INTENT = 'uploadImage';
const REMOVE_IMAGE_INTENT = 'removeImage';


// The pickers, the product image field and the save panel: never in a visitor's JavaScript (lib/lazy-part.ts).
const SignedInPart = lazyPart(() => import('~/components/calculator/signed-in-parts'), '[data-save-project]');

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
  project,
  pickers,
  filamentLines,
  submitted,
  slicerNotice,
}: {
  initial: Omit<CalculatorState, 'lastValid'>;
  fields: readonly FieldView[];
  project: ProjectState;
  pickers: PickerState | null;
  filamentLines: FilamentLinesState;
  /** The hidden fields of a refused save (no JS): the pickers show what was submitted. */
  submitted: Record<string, string> | undefined;
  slicerNotice: SlicerNoticeView | null;
}) {
  const { t } = useTranslation('calculator');
  const submit = useSubmit();
  const navigation = useNavigation();
  const saving = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post' && navigation.formData?.get('intent') === SAVE_INTENT;
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
    if (submitter?.getAttribute('value') === SAVE_INTENT) {
      const form = new FormData(event.currentTarget);
      form.set('intent', SAVE_INTENT);
      // The image went up already (its path is in the form); the file input's content is not part of a save.
      form.delete('image');
      // The seller stays where they saved (often far down on a phone), as without scripts (#projekt-speichern).
      submit(form, { method: 'post', action: '/calculator', preventScrollReset: true });
      return;
    }
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
                <SlicerImport initial={slicerNotice} />
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
            after={<FilamentLines values={initial.values} errors={errors} state={filamentLines} filaments={pickers?.items.filament ?? null} />}
          />
          <FieldSection
            section="packagingShipping"
            {...sectionProps}
            before={pickers ? <SignedInPart part="pickers" section="packagingShipping" state={pickers} submitted={submitted} /> : null}
          />
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
          <StickySummary evaluation={shown} stale={typing !== null} />
        </div>

        <div
          id="ergebnis"
          className="scroll-mt-4 space-y-6 lg:sticky lg:top-4 lg:self-start print:grid print:grid-cols-2 print:gap-3 print:space-y-0"
          aria-live="polite"
        >
          <div className="no-print">
            {signedIn ? (
              <SignedInPart part="save" saved={project.id !== null} saving={saving} unsaved={project.unsaved} error={project.saveError} />
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
          <div data-stale={typing ? true : undefined} className={typing ? 'space-y-6 opacity-50 transition-opacity' : 'contents'}>
            <Results evaluation={shown} values={values} />
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
      <HelpSection />
    </main>
  );
}

const secondaryButton =
  'inline-flex items-center gap-1.5 rounded-md border border-surface-line bg-surface px-3 py-2 text-sm font-medium text-ink hover:bg-surface-subtle';

function Results({ evaluation, values }: { evaluation: CalculatorEvaluation; values: CalculatorRawValues }) {
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
        filamentDetail={<FilamentCostLines lines={evaluation.input.filaments} values={values} quantity={evaluation.input.quantity} failureRate={evaluation.input.failureRate ?? 0} />}
      />
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
