import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { getServerT } from '../i18n.server';
import { libraryDefinitions, librarySchema, type LibraryKind, type LibraryLoaderData, type LibraryMode } from '../domain/library-definitions';
import {
  createLibraryItem,
  createLibraryItemFromPreset,
  deleteLibraryItem,
  getLibraryItem,
  listLibraryPage,
  SEARCH_MAX,
  setLibraryItemActive,
  updateLibraryItem,
  type LibraryContext,
} from '../models/library.server';
import { getRequestContext } from '../services/request-context.server';
import { pageResult } from './result-response.server';
import { redirectWithToast } from './toast.server';
import { readFormData } from './form-data.server';
import { searchText } from '../lib/search-text';
import { parseSubmission } from './form-submission.server';

/**
 * The page adapter of the five library pages: one loader and one action,
 * parametrised by the kind. Route files only name their kind.
 *
 * Without JavaScript the dialogs are states of the address: `?new`,
 * `?edit=<id>`, `?delete=<id>` render the form (or the confirmation) on the
 * page; the action redirects back to the list (keeping `?q=`) with a toast.
 */

function notFoundResponse(): Response {
  return new Response('Not Found', { status: 404 });
}

/** The list address to return to (with the search kept). */
export function listUrl(kind: LibraryKind, q: string | null | undefined): string {
  const search = searchText(q, SEARCH_MAX);
  return search ? `${libraryDefinitions[kind].path}?${new URLSearchParams({ q: search })}` : libraryDefinitions[kind].path;
}

export async function libraryLoader(kind: LibraryKind, args: LoaderFunctionArgs) {
  const t = await getServerT('library');
  const title = t(`library:${kind}.meta`);
  const ctx = await getRequestContext(args);
  if (!ctx.user) return { signedIn: false, kind, title } satisfies LibraryLoaderData;
  const libraryCtx: LibraryContext = { em: ctx.em, user: ctx.user };

  const params = new URL(args.request.url).searchParams;
  const q = searchText(params.get('q'), SEARCH_MAX);
  const editId = params.get('edit');
  const deleteId = params.get('delete');
  const mode: LibraryMode = editId !== null ? 'edit' : deleteId !== null ? 'delete' : params.has('new') ? 'new' : null;

  const page = Number.parseInt(params.get('page') ?? '1', 10);
  const [list, single] = await Promise.all([
    listLibraryPage(libraryCtx, kind, { q, page }),
    mode === 'edit' || mode === 'delete' ? getLibraryItem(libraryCtx, kind, editId ?? deleteId) : null,
  ]);
  if (single && single.kind !== 'ok') throw notFoundResponse();
  return {
    signedIn: true,
    kind,
    title,
    q,
    items: list.items,
    page: list.page,
    hasNext: list.hasNext,
    mode,
    item: single && single.kind === 'ok' ? single.value : null,
  } satisfies LibraryLoaderData;
}

/** The text fields' length rules, which the schema checks in code where zod cannot show them (echo bounds). */
function textLimits(kind: LibraryKind): Record<string, number> {
  return Object.fromEntries(libraryDefinitions[kind].fields.flatMap((field) => (field.type === 'text' || field.type === 'textarea' ? [[field.name, field.max]] : [])));
}

/** The fields a form post may carry for this kind (everything else is ignored). */
function formInput(kind: LibraryKind, formData: FormData): Record<string, unknown> {
  const definition = libraryDefinitions[kind];
  const input: Record<string, unknown> = {};
  for (const field of definition.fields) {
    const value = formData.get(field.name);
    if (field.type === 'switch') input[field.name] = value === null ? 0 : value;
    else if (typeof value === 'string') input[field.name] = value;
  }
  return input;
}

export async function libraryAction(kind: LibraryKind, args: ActionFunctionArgs) {
  const ctx = await getRequestContext(args);
  if (!ctx.user) {
    const url = new URL(args.request.url);
    throw redirect(`/auth?${new URLSearchParams({ redirectTo: url.pathname })}`);
  }
  const libraryCtx: LibraryContext = { em: ctx.em, user: ctx.user };
  const formData = await readFormData(args.request);
  const intent = formData.get('intent');
  const back = listUrl(kind, String(formData.get('q') ?? ''));
  const id = formData.get('id');
  const t = await getServerT('library');
  const text = (key: string, name?: string) => t(`library:${kind}.${key}`, { name });

  switch (intent) {
    case 'save': {
      const submission = parseSubmission(formData, librarySchema(kind), { maxLengths: textLimits(kind) });
      const isEdit = typeof id === 'string' && id !== '';
      const input = formInput(kind, formData);
      const result =
        submission.status !== 'success'
          ? // The same schema the model runs; answering here keeps conform's own error shape.
            ({ kind: 'fieldErrors', errors: submission.error ?? {} } as const)
          : isEdit
            ? await updateLibraryItem(libraryCtx, kind, id, input)
            : await createLibraryItem(libraryCtx, kind, input);
      return pageResult(
        submission,
        result.kind === 'fieldErrors' ? { ...result, errors: nonNullErrors(result.errors) } : result,
        (item) => ({
          redirectTo: back,
          toast: { title: text(isEdit ? 'updated' : 'created'), description: text('savedText', item.name) },
        }),
        { extra: { intent: 'save' } },
      );
    }
    case 'delete': {
      const result = await deleteLibraryItem(libraryCtx, kind, id);
      if (result.kind !== 'ok') throw notFoundResponse();
      return redirectWithToast(back, { title: text('deleted'), description: text('deletedText', result.value.name) });
    }
    case 'activate':
    case 'deactivate': {
      const result = await setLibraryItemActive(libraryCtx, kind, id, intent === 'activate');
      if (result.kind !== 'ok') throw notFoundResponse();
      return redirectWithToast(back, {
        title: text(intent === 'activate' ? 'activated' : 'deactivated'),
        description: text(intent === 'activate' ? 'activatedText' : 'deactivatedText', result.value.name),
      });
    }
    case 'preset': {
      const result = await createLibraryItemFromPreset(libraryCtx, kind, formData.get('preset'));
      if (result.kind !== 'ok') throw notFoundResponse();
      const { item, created } = result.value;
      // The item (new, or the one taken over before) opens in the form so the seller can adjust it right away.
      const params = new URLSearchParams({ edit: item.id });
      return redirectWithToast(`${libraryDefinitions[kind].path}?${params}`, {
        title: created ? text('created') : t('library:common.presetExists'),
        description: created ? text('savedText', item.name) : t('library:common.presetExistsText', { name: item.name }),
      });
    }
    default:
      return data({ intent: null, result: null }, { status: 400 });
  }
}

function nonNullErrors(errors: Record<string, string[] | null>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(errors).filter((entry): entry is [string, string[]] => Array.isArray(entry[1])));
}
