import { data, redirect } from '@remix-run/node';
import type { SubmissionResult } from '@conform-to/react';
import { getServerT } from '../i18n.server';
import type { Failure, FieldErrors, Result } from '../domain/result';
import { jsonResponse, messageResponse, rateLimitedResponse, validationErrorResponse } from './api.server';
import { rateLimitedMessage } from '../lib/messages';
import { combineHeaders, createToastHeaders, redirectWithToast, type ToastInput } from './toast.server';

/**
 * The two adapters from an operation's Result to a response. Routes parse,
 * call the operation and hand the result here; no route maps errors itself.
 */

// ---------------------------------------------------------------------------
// JSON API: status code + `{ message, errors }` (spec §7), German texts.

const NOT_FOUND_KEY = 'auth:messages.notFound';

/** Options of the API adapters: the message of a bare 400, and fields some failures add to the body (the login's sign-in link offer on 429). */
export type ApiFailureOptions = { invalidMessageKey?: string; extraFor?: Partial<Record<Failure['kind'], Record<string, unknown>>> };

/** A failure as the JSON API answers it. */
export async function apiFailure(failure: Failure, options: ApiFailureOptions = {}): Promise<Response> {
  const answer = await apiFailureResponse(failure, options);
  const extra = options.extraFor?.[failure.kind];
  if (!extra) return answer;
  return jsonResponse({ ...((await answer.json()) as Record<string, unknown>), ...extra }, { status: answer.status, headers: answer.headers });
}

async function apiFailureResponse(failure: Failure, { invalidMessageKey }: ApiFailureOptions): Promise<Response> {
  switch (failure.kind) {
    case 'fieldErrors': {
      // An answer with a code (spec §7: INVALID_PASSWORD) is `{ code, message }`; the code names the field.
      if (failure.code) return messageResponse(failure.message ?? 'auth:messages.invalidInput', 400, { code: failure.code });
      const { '': _formErrors, ...errors } = failure.errors;
      return validationErrorResponse(errors, failure.message ?? invalidMessageKey);
    }
    case 'invalid': {
      const t = await getServerT('auth');
      return jsonResponse({ ...failure.details, message: t(failure.reason, failure.params) }, 400);
    }
    case 'rateLimited':
      if (failure.reason) return messageResponse(failure.reason, 429, {}, { headers: { 'Retry-After': String(failure.retryAfterSeconds) } });
      return rateLimitedResponse(failure.retryAfterSeconds);
    case 'tooLarge': {
      const t = await getServerT('auth');
      return jsonResponse({ message: t(failure.reason, failure.params) }, 413);
    }
    case 'unauthorized':
      return messageResponse(failure.reason, 401);
    case 'forbidden':
      return messageResponse(failure.reason, 403, failure.details ?? {});
    case 'notFound':
      return messageResponse(NOT_FOUND_KEY, 404);
  }
}

/**
 * The API response of a result: `onOk` builds the success body (a Response, or
 * a plain value sent as 200 JSON); failures get their status and German message.
 */
export async function apiResult<T>(
  result: Result<T>,
  onOk: (value: T) => Response | unknown | Promise<Response | unknown>,
  options: ApiFailureOptions = {},
): Promise<Response> {
  if (result.kind !== 'ok') return apiFailure(result, options);
  const body = await onOk(result.value);
  return body instanceof Response ? body : jsonResponse(body);
}

// ---------------------------------------------------------------------------
// Pages: Conform's `submission.reply()` with the errors next to their fields,
// or on success a redirect that carries a toast (and any cookie the operation needs).

type Submission = { reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }): SubmissionResult<string[]> };

/** Where a page goes on success: the address, its toast, extra headers (a cookie), and the redirect's status (302 unless said). */
export type PageSuccess = { redirectTo: string; toast?: ToastInput; headers?: HeadersInit; status?: number };

/** The status of each failure, pages and API alike. */
export const FAILURE_STATUS: Record<Failure['kind'], number> = { fieldErrors: 400, invalid: 400, rateLimited: 429, tooLarge: 413, unauthorized: 401, forbidden: 403, notFound: 404 };

/** What a failure carries into the page's action data besides its message (forbidden's and invalid's `details`). */
function detailsOf(failure: Failure): Record<string, unknown> {
  return failure.kind === 'forbidden' || failure.kind === 'invalid' ? (failure.details ?? {}) : {};
}

/**
 * Options of the page adapters. `extra` is merged into the action data (e.g. the
 * form's intent); `flags` name booleans the page reads, each true when the
 * failure is of its kind (`{ locked: 'rateLimited' }`); `notFoundErrors` answer
 * a missing reference as field errors on this form instead of a 404.
 */
export type PageFailureOptions<E, F extends FailureFlags> = { hideFields?: string[]; extra?: E; flags?: F; notFoundErrors?: FieldErrors };
type FailureFlags = Record<string, Failure['kind']>;
type Flagged<F extends FailureFlags> = { [K in keyof F]: boolean };

function flagsOf<F extends FailureFlags>(failure: Failure, flags: F | undefined): Flagged<F> {
  return Object.fromEntries(Object.entries(flags ?? {}).map(([name, kind]) => [name, failure.kind === kind])) as Flagged<F>;
}

/** The reply for a failed submission (see PageFailureOptions). */
export async function pageFailure<E extends Record<string, unknown>, F extends FailureFlags = Record<never, never>>(
  submission: Submission,
  failure: Failure,
  { hideFields, extra, flags, notFoundErrors }: PageFailureOptions<E, F> = {},
) {
  if (failure.kind === 'notFound' && notFoundErrors) failure = { kind: 'fieldErrors', errors: notFoundErrors };
  if (failure.kind === 'notFound') throw new Response('Not Found', { status: 404 });
  let reply: SubmissionResult<string[]>;
  switch (failure.kind) {
    case 'fieldErrors': {
      const { '': formErrors, ...fieldErrors } = failure.errors;
      reply = submission.reply({ fieldErrors, formErrors, hideFields });
      break;
    }
    case 'rateLimited': {
      const t = await getServerT('auth');
      reply = submission.reply({ formErrors: [failure.reason ?? rateLimitedMessage(t, failure.retryAfterSeconds)], hideFields });
      break;
    }
    case 'tooLarge':
    case 'invalid':
    case 'unauthorized':
    case 'forbidden':
      // The page translates the key (like every Conform error from the shared schemas).
      reply = submission.reply({ formErrors: [failure.reason], hideFields });
      break;
  }
  return data({ ...(extra ?? ({} as E)), ...flagsOf(failure, flags), ...detailsOf(failure), result: reply }, { status: FAILURE_STATUS[failure.kind] });
}

async function pageSuccess(success: PageSuccess) {
  const headers = combineHeaders(success.headers, success.toast ? await createToastHeaders(success.toast) : null);
  return redirect(success.redirectTo, { headers, ...(success.status ? { status: success.status } : {}) });
}

/** The page response of a result: on success `onOk` says where to go and which toast to show. */
export async function pageResult<T, E extends Record<string, unknown>, F extends FailureFlags = Record<never, never>>(
  submission: Submission,
  result: Result<T>,
  onOk: (value: T) => PageSuccess | Promise<PageSuccess>,
  options: PageFailureOptions<E, F> = {},
) {
  if (result.kind !== 'ok') return pageFailure(submission, result, options);
  return pageSuccess(await onOk(result.value));
}

/** The German text of a failure, as the JSON API says it (for forms that show one message). */
export async function failureMessage(failure: Failure): Promise<string> {
  const t = await getServerT('auth');
  switch (failure.kind) {
    case 'fieldErrors':
      return t(failure.message ?? failure.errors['']?.[0] ?? 'auth:messages.invalidInput');
    case 'invalid':
    case 'tooLarge':
      return t(failure.reason, failure.params);
    case 'rateLimited':
      return failure.reason ? t(failure.reason) : rateLimitedMessage(t, failure.retryAfterSeconds);
    case 'unauthorized':
    case 'forbidden':
      return t(failure.reason);
    case 'notFound':
      return t(NOT_FOUND_KEY);
  }
}

/**
 * A failure on a form without Conform that shows one message: `{ ...extra,
 * formError }` (or the `field` named) with its status and German text;
 * a missing thing is 404.
 */
export async function pageMessageFailure<E extends Record<string, unknown>, K extends string = 'formError'>(
  failure: Failure,
  { extra, field }: { extra?: E; field?: K } = {},
) {
  if (failure.kind === 'notFound') throw new Response('Not Found', { status: 404 });
  const message = { [field ?? 'formError']: await failureMessage(failure) } as Record<K, string>;
  return data({ ...(extra ?? ({} as E)), ...detailsOf(failure), ...message }, { status: FAILURE_STATUS[failure.kind] });
}

/**
 * The page response of a result for a form without Conform that shows one
 * message (the no-JS file upload): a failure is `pageMessageFailure`, success
 * the same redirect as `pageResult`.
 */
export async function pageMessageResult<T, E extends Record<string, unknown>, K extends string = 'formError'>(
  result: Result<T>,
  onOk: (value: T) => PageSuccess | Promise<PageSuccess>,
  options: { extra?: E; field?: K } = {},
) {
  if (result.kind === 'ok') return pageSuccess(await onOk(result.value));
  return pageMessageFailure(result, options);
}

/** Like `pageMessageResult`, for an action that answers success within the page: `onOk` gives the action data itself. */
export async function pageDataResult<T, R, E extends Record<string, unknown>, K extends string = 'formError', F = never>(
  result: Result<T>,
  onOk: (value: T) => R | Promise<R>,
  options: { extra?: E; field?: K; /** A failure answered in the page's own shape (its German text and status). */ onFailure?: (message: string, status: number) => F } = {},
) {
  if (result.kind === 'ok') return onOk(result.value);
  if (options.onFailure) return options.onFailure(await failureMessage(result), FAILURE_STATUS[result.kind]);
  return pageMessageFailure(result, options);
}

/**
 * The page response of an action that always goes back with a toast (a list's
 * copy and delete, a quote's status): success as `onOk` says, a failure back
 * to `redirectTo` with an error toast titled `title` and the failure's German
 * text. A missing thing is 404, unless `notFoundText` says what to tell instead.
 * `inPage` answers the failures of its kinds within the page instead (`onInPage`
 * gets the German text and the status).
 */
export async function toastResult<T, R = never>(
  result: Result<T>,
  onOk: (value: T) => PageSuccess | Promise<PageSuccess>,
  failed: { redirectTo: string; title: string; notFoundText?: string; inPage?: { kinds: Failure['kind'][]; answer: (message: string, status: number) => R } },
): Promise<Response | R> {
  if (result.kind === 'ok') return pageSuccess(await onOk(result.value));
  if (failed.inPage?.kinds.includes(result.kind)) return failed.inPage.answer(await failureMessage(result), FAILURE_STATUS[result.kind]);
  if (result.kind === 'notFound' && failed.notFoundText === undefined) throw new Response('Not Found', { status: 404 });
  const description = result.kind === 'notFound' ? failed.notFoundText! : await failureMessage(result);
  return redirectWithToast(failed.redirectTo, { type: 'error', title: failed.title, description });
}

const REASON_PHRASES: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 413: 'Content Too Large', 429: 'Too Many Requests' };

/**
 * The value of a result a page's loader needs to go on (the thing it shows or
 * edits); a failure is thrown as its status (404, 403, ...) for the error page.
 */
export function pageValue<T>(result: Result<T>): T {
  if (result.kind === 'ok') return result.value;
  const status = FAILURE_STATUS[result.kind];
  throw new Response(REASON_PHRASES[status], { status });
}

/**
 * A resource route's answer (a file download): `onOk` builds it; too many
 * requests is the JSON 429 with Retry-After, anything else a plain 404 (the
 * answer never tells whether someone else's thing exists).
 */
export async function resourceResult<T>(result: Result<T>, onOk: (value: T) => Response | Promise<Response>): Promise<Response> {
  if (result.kind === 'ok') return onOk(result.value);
  if (result.kind === 'rateLimited') throw await rateLimitedResponse(result.retryAfterSeconds);
  throw await resourceNotFoundResponse();
}

/**
 * The 404 of a resource route (a file, not a page; the app's error page does not render for it):
 * a small German page with the error page's texts, not the bare English 'Not Found'.
 */
export async function resourceNotFoundResponse(): Promise<Response> {
  const t = await getServerT('common');
  const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  const html = `<!DOCTYPE html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escape(t('common:errors.notFoundDocumentTitle'))}</title></head><body><main><p>${escape(t('common:errors.statusLabel', { status: 404 }))}</p><h1>${escape(t('common:errors.notFoundTitle'))}</h1><p>${escape(t('common:errors.notFoundText'))}</p><p><a href="/">${escape(t('common:errors.backHome'))}</a></p></main></body></html>`;
  return new Response(html, { status: 404, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
}

/**
 * A loader whose page shows a state either way (a link opened from a mail):
 * `onOk` gets the value, `onFailure` the i18n key of the failure's reason
 * (`fallbackKey` for a failure without one: not found, rate-limited).
 */
export async function pageStateResult<T, A, B>(
  result: Result<T>,
  onOk: (value: T) => A | Promise<A>,
  onFailure: (messageKey: string) => B | Promise<B>,
  fallbackKey = 'auth:messages.invalidInput',
): Promise<A | B> {
  if (result.kind === 'ok') return onOk(result.value);
  return onFailure(result.kind === 'notFound' || result.kind === 'rateLimited' || result.kind === 'fieldErrors' ? fallbackKey : result.reason);
}
