import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { getServerT } from '../i18n.server';
import { libraryErrorKeys, splitMessage, type LibraryKind } from '../domain/library-definitions';
import {
  createLibraryItem,
  deleteLibraryItem,
  getLibraryItem,
  listLibraryItems,
  updateLibraryItem,
  type LibraryContext,
} from '../models/library.server';
import type { Failure, FieldErrors, Result } from '../domain/result';
import { getRequestContext } from '../services/request-context.server';
import { jsonResponse, malformedBodyResponse, methodNotAllowed, readBody } from './api.server';

/**
 * The library's JSON API (spec §7), the same for every kind:
 * GET/POST /api/<kind>, GET/PUT/DELETE /api/<kind>/<id>. The route files only
 * say which kind they serve; the operations are the pages' (models/library.server.ts).
 */

type TFunction = (key: string, options?: Record<string, unknown>) => string;

/** German texts for field errors whose message may carry parameters ("library:errors.min|{…}"). */
export function translateLibraryErrors(t: TFunction, errors: FieldErrors): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors).map(([field, messages]) => [
      field,
      messages.map((message) => {
        const { key, params } = splitMessage(message);
        return t(key, params);
      }),
    ]),
  );
}

async function failureResponse(failure: Failure): Promise<Response> {
  const t = (await getServerT(['library', 'auth'])) as unknown as TFunction;
  switch (failure.kind) {
    case 'fieldErrors': {
      const { '': formErrors, ...errors } = failure.errors;
      const message = formErrors?.length ? translateLibraryErrors(t, { '': formErrors })[''][0] : t(libraryErrorKeys.invalidInput);
      return jsonResponse({ message, errors: translateLibraryErrors(t, errors) }, 400);
    }
    case 'invalid':
      return jsonResponse({ ...failure.details, message: t(failure.reason, failure.params) }, 400);
    case 'notFound':
      return jsonResponse({ message: t('library:errors.notFound') }, 404);
    case 'unauthorized':
      return jsonResponse({ message: t(failure.reason) }, 401);
    case 'forbidden':
      return jsonResponse({ message: t(failure.reason) }, 403);
    case 'rateLimited':
      return jsonResponse({ message: t('auth:messages.rateLimited', { minutes: Math.ceil(failure.retryAfterSeconds / 60) }) }, 429);
    case 'tooLarge':
      return jsonResponse({ message: t(failure.reason) }, 413);
  }
}

async function answer<T>(result: Result<T>, status = 200): Promise<Response> {
  if (result.kind !== 'ok') return failureResponse(result);
  return status === 204 ? new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } }) : jsonResponse(result.value, status);
}

/** The signed-in user's context, or the 401 answer for visitors. */
async function apiContext(args: LoaderFunctionArgs | ActionFunctionArgs): Promise<LibraryContext | Response> {
  const ctx = await getRequestContext(args);
  if (ctx.user) return { em: ctx.em, user: ctx.user };
  return failureResponse({ kind: 'unauthorized', reason: 'auth:messages.unauthorized' });
}

async function readJson(request: Request): Promise<Record<string, unknown> | Response> {
  return (await readBody(request)) ?? malformedBodyResponse();
}

/** GET /api/<kind>: the user's items, newest first (optional ?q=). */
export async function libraryListApi(kind: LibraryKind, args: LoaderFunctionArgs): Promise<Response> {
  const ctx = await apiContext(args);
  if (ctx instanceof Response) return ctx;
  return answer(await listLibraryItems(ctx, kind, { q: new URL(args.request.url).searchParams.get('q') }));
}

/** POST /api/<kind>: 201 with the created item (including its id). */
export async function libraryCreateApi(kind: LibraryKind, args: ActionFunctionArgs): Promise<Response> {
  if (args.request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const ctx = await apiContext(args);
  if (ctx instanceof Response) return ctx;
  const body = await readJson(args.request);
  if (body instanceof Response) return body;
  return answer(await createLibraryItem(ctx, kind, body), 201);
}

/** GET /api/<kind>/<id>; someone else's id is 404. */
export async function libraryItemApi(kind: LibraryKind, args: LoaderFunctionArgs): Promise<Response> {
  const ctx = await apiContext(args);
  if (ctx instanceof Response) return ctx;
  return answer(await getLibraryItem(ctx, kind, args.params.id));
}

/** PUT (200 with the item) and DELETE (204) /api/<kind>/<id>; someone else's id is 404. */
export async function libraryChangeApi(kind: LibraryKind, args: ActionFunctionArgs): Promise<Response> {
  const method = args.request.method;
  if (method !== 'PUT' && method !== 'DELETE') return methodNotAllowed(['GET', 'PUT', 'DELETE']);
  const ctx = await apiContext(args);
  if (ctx instanceof Response) return ctx;
  if (method === 'DELETE') return answer(await deleteLibraryItem(ctx, kind, args.params.id), 204);
  const body = await readJson(args.request);
  if (body instanceof Response) return body;
  return answer(await updateLibraryItem(ctx, kind, args.params.id, body));
}
