import type { z } from 'zod';
import { getServerT } from '../i18n.server';
import { rateLimitedMessage } from '../lib/messages';

/**
 * Small helpers for the JSON resource routes (spec §7): read a body, answer
 * validation errors with 400 `{ message, errors }` in German, 429 with
 * Retry-After. Error keys from the schemas are translated here.
 */

export type ApiErrors = Record<string, string[]>;

/**
 * The request body as a plain object: JSON (what the spec's client sends), or
 * a urlencoded/multipart form (scripts-off fallbacks and tools). Null when the
 * body cannot be read: the caller answers `malformedBodyResponse()`, never 500.
 */
export async function readBody(request: Request): Promise<Record<string, unknown> | null> {
  const contentType = request.headers.get('content-type')?.toLowerCase() ?? '';
  try {
    if (contentType.includes('application/x-www-form-urlencoded') || contentType.includes('multipart/form-data')) {
      const form = await request.formData();
      const result: Record<string, unknown> = {};
      for (const [key, value] of form) if (typeof value === 'string') result[key] = value;
      return result;
    }
    const text = await request.text();
    if (text.trim() === '') return {};
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function jsonResponse(body: unknown, init: number | ResponseInit = 200): Response {
  const options = typeof init === 'number' ? { status: init } : init;
  const headers = new Headers(options.headers);
  headers.set('Cache-Control', 'no-store');
  return Response.json(body, { ...options, headers });
}

/** `{ message }` with a German text from namespace `auth` (keys like 'auth:messages.x'). */
export async function messageResponse(key: string, status: number, extra: Record<string, unknown> = {}, init: ResponseInit = {}) {
  const t = await getServerT('auth');
  return jsonResponse({ ...extra, message: t(key) }, { ...init, status });
}

/** Translates i18n keys in field errors to German. */
export async function translateErrors(errors: ApiErrors): Promise<ApiErrors> {
  const t = await getServerT(['auth', 'common']);
  return Object.fromEntries(Object.entries(errors).map(([field, keys]) => [field, keys.map((key) => t(key))]));
}

/** Field errors of a failed zod parse, by top-level field ('' for form-level). */
export function zodFieldErrors(error: z.ZodError): ApiErrors {
  const errors: ApiErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : '';
    const messages = (errors[field] ??= []);
    if (!messages.includes(issue.message)) messages.push(issue.message);
  }
  return errors;
}

/** 400 `{ message, errors }` with German texts. */
export async function validationErrorResponse(errors: ApiErrors, messageKey = 'auth:messages.invalidInput'): Promise<Response> {
  const t = await getServerT('auth');
  return jsonResponse({ message: t(messageKey), errors: await translateErrors(errors) }, 400);
}

/**
 * The one answer of every API route to a body it cannot read (malformed
 * JSON, anything but an object, a broken form): 400 with the same German
 * message everywhere, so a client handles it once.
 */
export async function malformedBodyResponse(): Promise<Response> {
  return messageResponse('auth:messages.malformedBody', 400);
}

/** Parses a body with a schema: the data, or the 400 response to return. */
export async function parseBody<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<{ ok: true; data: z.infer<S>; raw: Record<string, unknown> } | { ok: false; response: Response }> {
  const raw = await readBody(request);
  if (!raw) return { ok: false, response: await malformedBodyResponse() };
  const result = schema.safeParse(raw);
  if (!result.success) return { ok: false, response: await validationErrorResponse(zodFieldErrors(result.error)) };
  return { ok: true, data: result.data, raw };
}

/** 429 with a German message and Retry-After. */
export async function rateLimitedResponse(retryAfterSeconds: number): Promise<Response> {
  const t = await getServerT('auth');
  return jsonResponse(
    { message: rateLimitedMessage(t, retryAfterSeconds) },
    { status: 429, headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } },
  );
}

export async function methodNotAllowed(allowed: readonly string[]): Promise<Response> {
  const t = await getServerT('auth');
  return jsonResponse({ message: t('auth:messages.methodNotAllowed') }, { status: 405, headers: { Allow: allowed.join(', ') } });
}
