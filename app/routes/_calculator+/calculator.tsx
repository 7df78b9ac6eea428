import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useLocation, useRouteLoaderData } from '@remix-run/react';
import { evaluateCalculatorCached } from '~/calculator/evaluate-cache.server';
import { fieldViews, lineTextsOf, type FieldView } from '~/calculator/fields';
import { filamentLinesState, lineActionRedirect } from '~/calculator/filament-line-actions';
import { QUOTE_INTENT, REMOVE_IMAGE_INTENT, RESET_PARAM, SAVE_INTENT, UPLOAD_INTENT } from '~/calculator/page';
import type { PickerState } from '~/calculator/pickers';
import { Calculator, type ProjectState } from '~/components/calculator/calculator';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { invalid } from '~/domain/result';
import { getServerT } from '~/i18n.server';
import { getAdsView } from '~/models/ads.server';
import { openCalculator, removeCalculatorImage, saveCalculatorProject, uploadCalculatorImage } from '~/models/calculator-projects.server';
import type { loader as rootLoader } from '~/root';
import { publicPageHeaders } from '~/server/http-cache';
import { LAZY_PARTS, adContentPreloads, partPreloads } from '~/server/part-preloads.server';
import { getRequestContext, getUserContext } from '~/services/auth.server';
import { slicerNoticeView } from '~/slicer/import-view';
import { calculatorImageReply, calculatorSaveReply, readCalculatorPost } from '~/web/calculator-page.server';
import { getConsent } from '~/web/consent.server';
import { redirectWithToast } from '~/web/toast.server';

// For a visitor the page depends only on the address and the consent cookie (visitor-page-cache.server.ts).
// `ads`: this page has ad slots (entry.server.tsx widens its CSP for the ad script when allowed).
export const handle = { i18n: ['calculator', 'pickers', 'projects', 'filament-lines', 'project-tools'], ads: true };
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
  const params = new URL(args.request.url).searchParams;
  const t = await getServerT('calculator');
  // The reset link: back to the defaults with the spec's toast (a flash cookie, so it shows without JS).
  if (params.has(RESET_PARAM)) return redirectWithToast('/calculator', { title: t('toast.reset') });
  const ctx = await getUserContext(args);
  const page = await openCalculator(ctx, params);
  if ('redirectTo' in page) throw redirect(page.redirectTo);
  // Issue 23: 'Filament hinzufügen' / 'Entfernen' / a line's 'Übernehmen' without JS.
  const libraryFilaments = page.pickers?.items.filament ?? null;
  const lineRedirect = lineActionRedirect(params, libraryFilaments);
  if (lineRedirect) throw redirect(lineRedirect);
  return {
    ...page,
    filamentLines: filamentLinesState(params, page.hidden, lineTextsOf(page.values).length, libraryFilaments),
    fields: fieldViews,
    evaluation: evaluateCalculatorCached(page.values),
    slicerNotice: slicerNoticeView(params, t, libraryFilaments),
    // The signed-in parts and the ad slots' content are chunks of their own: fetched with the page's scripts (root.tsx).
    partPreloads: [...(ctx ? partPreloads(LAZY_PARTS.calculatorSignedIn) : []), ...(await adContentPreloadsFor(args))],
    meta: { title: t('meta.title'), description: t('meta.description') },
  };
}

/** The root loader's ads decision again (settings cached, the context shared): no database read of its own. */
async function adContentPreloadsFor(args: LoaderFunctionArgs): Promise<string[]> {
  return adContentPreloads(await getAdsView(await getRequestContext(args), await getConsent(args.request)));
}

/**
 * POST /calculator: the save button of the calculator form (with JavaScript
 * through fetch, without as a plain form post) and the no-JS product image
 * upload and removal, told apart by `intent`. Success of a save goes to
 * `/calculator?project=<id>` with the §8 toast; a refusal comes back with every
 * input as typed and the message next to the button (and the field).
 */
export async function action(args: ActionFunctionArgs) {
  const post = await readCalculatorPost(args.request);
  if (post.intent === null) return calculatorSaveReply(post, invalid('projects:toast.saveErrorText'));
  const ctx = await getRequestContext(args);
  switch (post.intent) {
    case UPLOAD_INTENT:
      return calculatorImageReply(post, await uploadCalculatorImage(ctx, post.image));
    case REMOVE_IMAGE_INTENT:
      return calculatorImageReply(post, await removeCalculatorImage(ctx, post.hidden.productImagePath));
    case SAVE_INTENT:
    case QUOTE_INTENT:
      return calculatorSaveReply(post, await saveCalculatorProject(ctx, post.fields));
  }
}

export default function CalculatorPage() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const user = useRouteLoaderData<typeof rootLoader>('root')?.user ?? null;
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
    usage: loaded.projectUsage,
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
      user={user}
      sellerName={loaded.sellerName}
    />
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.meta.title },
  { name: 'description', content: data?.meta.description },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
