import { data, redirect } from '@remix-run/node';
import type { SubmissionResult } from '@conform-to/react';
import { getServerT } from '../i18n.server';
import type { Failure, Result } from '../domain/result';
import { jsonResponse, messageResponse, rateLimitedResponse, validationErrorResponse } from './api.server';
import { rateLimitedMessage } from '../lib/messages';
import { combineHeaders, createToastHeaders, type ToastInput } from './toast.server';

/**
 * The two adapters from an operation's Result to a response. Routes parse,
 * call the operation and hand the result here; no route maps errors itself.
 */

// ---------------------------------------------------------------------------
// JSON API: status code + `{ message, errors }` (spec §7), German texts.

const NOT_FOUND_KEY = 'auth:messages.notFound';

/** A failure as the JSON API answers it. */
export async function apiFailure(failure: Failure, { invalidMessageKey }: { invalidMessageKey?: string } = {}): Promise<Response> {
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
  options: { invalidMessageKey?: string } = {},
): Promise<Response> {
  if (result.kind !== 'ok') return apiFailure(result, options);
  const body = await onOk(result.value);
  return body instanceof Response ? body : jsonResponse(body);
}

// ---------------------------------------------------------------------------
// Pages: Conform's `submission.reply()` with the errors next to their fields,
// or on success a redirect that carries a toast (and any cookie the operation needs).

type Submission = { reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }): SubmissionResult<string[]> };

export type PageSuccess = { redirectTo: string; toast?: ToastInput; headers?: HeadersInit };

/** The status of each failure, pages and API alike. */
export const FAILURE_STATUS: Record<Failure['kind'], number> = { fieldErrors: 400, invalid: 400, rateLimited: 429, tooLarge: 413, unauthorized: 401, forbidden: 403, notFound: 404 };

/** What a failure carries into the page's action data besides its message (forbidden's and invalid's `details`). */
function detailsOf(failure: Failure): Record<string, unknown> {
  return failure.kind === 'forbidden' || failure.kind === 'invalid' ? (failure.details ?? {}) : {};
}

/** The reply for a failed submission; `extra` is merged into the action data (e.g. the form's intent). */
export async function pageFailure<E extends Record<string, unknown>>(
  submission: Submission,
  failure: Failure,
  { hideFields, extra }: { hideFields?: string[]; extra?: E } = {},
) {
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
  return data({ ...(extra ?? ({} as E)), ...detailsOf(failure), result: reply }, { status: FAILURE_STATUS[failure.kind] });
}

async function pageSuccess(success: PageSuccess) {
  const headers = combineHeaders(success.headers, success.toast ? await createToastHeaders(success.toast) : null);
  return redirect(success.redirectTo, { headers });
}

/** The page response of a result: on success `onOk` says where to go and which toast to show. */
export async function pageResult<T, E extends Record<string, unknown>>(
  submission: Submission,
  result: Result<T>,
  onOk: (value: T) => PageSuccess | Promise<PageSuccess>,
  options: { hideFields?: string[]; extra?: E } = {},
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
 * The page response of a result for a form without Conform that shows one
 * message (the no-JS file upload): a failure is `{ ...extra, formError }` with
 * its status and German text, success the same redirect as `pageResult`.
 */
export async function pageMessageResult<T, E extends Record<string, unknown>>(
  result: Result<T>,
  onOk: (value: T) => PageSuccess | Promise<PageSuccess>,
  { extra }: { extra?: E } = {},
) {
  if (result.kind === 'ok') return pageSuccess(await onOk(result.value));
  if (result.kind === 'notFound') throw new Response('Not Found', { status: 404 });
  return data({ ...(extra ?? ({} as E)), ...detailsOf(result), formError: await failureMessage(result) }, { status: FAILURE_STATUS[result.kind] });
}
