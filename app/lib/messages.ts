/**
 * Messages from schemas and actions are i18n keys ('auth:errors.passwordMin');
 * a few arrive already translated (e.g. a rate-limit text with its minutes).
 * Keys are translated, anything else is shown as it is.
 */
export function translateMessage(t: (key: string) => string, message: string): string {
  return /^[a-z][\w-]*:[\w.]+$/i.test(message) ? t(message) : message;
}

/** Whole minutes until a rate limit lets the next attempt through: rounded up, at least 1. */
export function retryMinutes(retryAfterSeconds: number): number {
  return Math.max(1, Math.ceil(retryAfterSeconds / 60));
}

/**
 * "Zu viele Versuche. Bitte warten Sie 47 Minuten …" with the German plural
 * ("1 Minute", "47 Minuten"): the count picks `rateLimited_one` or `_other`.
 */
export function rateLimitedMessage(t: (key: string, options: { count: number }) => string, retryAfterSeconds: number): string {
  return t('auth:messages.rateLimited', { count: retryMinutes(retryAfterSeconds) });
}
