/**
 * What a domain operation answers (`(ctx, input) => Result`). The two adapters
 * in app/web/result-response.server.ts turn it into a page response (Conform
 * reply, toast, redirect) or a JSON API response (status + `{ message, errors }`),
 * so a rule such as a rate limit or an ownership check is written once, in the
 * operation, and pages and API answer it the same way.
 *
 * Error texts are i18n keys ('auth:messages.x'); the adapters translate them.
 */
export type FieldErrors = Record<string, string[]>;

export type Ok<T> = { kind: 'ok'; value: T };
export type Failure =
  | { kind: 'fieldErrors'; errors: FieldErrors; message?: string; code?: string }
  | { kind: 'invalid'; reason: string; params?: Record<string, unknown>; details?: Record<string, unknown> }
  | { kind: 'rateLimited'; retryAfterSeconds: number; reason?: string }
  | { kind: 'tooLarge'; reason: string; params?: Record<string, unknown> }
  | { kind: 'unauthorized'; reason: string }
  | { kind: 'notFound' }
  | { kind: 'forbidden'; reason: string; details?: Record<string, unknown> };
export type Result<T> = Ok<T> | Failure;

export function ok(): Ok<undefined>;
export function ok<T>(value: T): Ok<T>;
export function ok<T>(value?: T): Ok<T | undefined> {
  return { kind: 'ok', value };
}

/**
 * Field errors by field name, as i18n keys. '' holds errors of the form as a
 * whole (pages show them above the form). `message` is the JSON API's
 * `message` (default: "check your input"), `code` a machine-readable code
 * some API answers carry (spec §7: INVALID_PASSWORD).
 */
export function fieldErrors(errors: FieldErrors, { message, code }: { message?: string; code?: string } = {}): Failure {
  return { kind: 'fieldErrors', errors, ...(message ? { message } : {}), ...(code ? { code } : {}) };
}

/**
 * The request as a whole is refused (400) and there is no field to fix: a
 * broken or used link, a file that is no picture. `reason` is the i18n key of
 * the message, `params` fill its placeholders where the server translates it
 * (the JSON API, `pageMessageResult`), `details` go into the answer as they are
 * (e.g. `{ error: 'tooLarge' }`).
 */
export function invalid(reason: string, { params, details }: { params?: Record<string, unknown>; details?: Record<string, unknown> } = {}): Failure {
  return { kind: 'invalid', reason, ...(params ? { params } : {}), ...(details ? { details } : {}) };
}

/** Too many attempts (429); `reason`, an i18n key, says what the wait is for where the generic text would mislead. */
export function rateLimited(retryAfterSeconds: number, reason?: string): Failure {
  return { kind: 'rateLimited', retryAfterSeconds, ...(reason ? { reason } : {}) };
}

/** An upload over its cap (413); `reason` is the i18n key of the message, `params` fill its placeholders (the cap). */
export function tooLarge(reason: string, { params }: { params?: Record<string, unknown> } = {}): Failure {
  return { kind: 'tooLarge', reason, ...(params ? { params } : {}) };
}

/** Wrong or missing credentials (401); `reason` is the i18n key of the message. */
export function unauthorized(reason: string): Failure {
  return { kind: 'unauthorized', reason };
}

/** Missing, or someone else's (another user's id is 404, never 403). */
export function notFound(): Failure {
  return { kind: 'notFound' };
}

/** Signed in but not allowed (admin rights, plan limits, unconfirmed address); `reason` is an i18n key,
 * `details` go into the answer as they are (e.g. `{ emailNotVerified: true }`). */
export function forbidden(reason: string, details?: Record<string, unknown>): Failure {
  return { kind: 'forbidden', reason, ...(details ? { details } : {}) };
}

export function isOk<T>(result: Result<T>): result is Ok<T> {
  return result.kind === 'ok';
}

/** The value of an ok result, or null. */
export function valueOrNull<T>(result: Result<T>): T | null {
  return result.kind === 'ok' ? result.value : null;
}

/** The next step on an ok result's value; a failure passes through unchanged. */
export async function andThen<T, U>(result: Result<T>, next: (value: T) => Result<U> | Promise<Result<U>>): Promise<Result<U>> {
  return result.kind === 'ok' ? next(result.value) : result;
}
