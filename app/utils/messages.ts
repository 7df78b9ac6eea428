/**
 * Messages from schemas and actions are i18n keys ('auth:errors.passwordMin');
 * a few arrive already translated (e.g. a rate-limit text with its minutes).
 * Keys are translated, anything else is shown as it is.
 */
export function translateMessage(t: (key: string) => string, message: string): string {
  return /^[a-z][\w-]*:[\w.]+$/i.test(message) ? t(message) : message;
}
