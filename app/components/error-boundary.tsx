import { isRouteErrorResponse, Link, useRouteError } from '@remix-run/react';
import { Calculator, FileQuestionMark, House, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/**
 * German error page for 404s and unexpected errors; used by root and routes.
 * Technical details (message, stack) only ever show in development.
 */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const isResponse = isRouteErrorResponse(error);
  // A database outage is a 503 on the server (entry.server.tsx), but the browser's copy of the error
  // is the sanitised "Unexpected Server Error": it keeps the status the server rendered.
  const status = isResponse ? error.status : renderedStatus() ?? 500;
  const notFound = status === 404;
  const unavailable = status === 503;
  // A request the server refused (a broken form body, a method the page does not take): nothing to reload.
  const refused = status >= 400 && status < 500 && !notFound;
  if (!isResponse) console.error(error);
  const [title, text] = notFound
    ? ['errors.notFoundTitle', 'errors.notFoundText']
    : unavailable
      ? ['errors.unavailableTitle', 'errors.unavailableText']
      : refused
        ? ['errors.badRequestTitle', status === 405 ? 'errors.methodNotAllowedText' : status === 403 ? 'errors.forbiddenText' : 'errors.badRequestText']
        : ['errors.serverErrorTitle', 'errors.serverErrorText'];

  const Icon = notFound ? FileQuestionMark : TriangleAlert;
  return (
    <main data-error-status={status} className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center sm:py-24">
      <span aria-hidden="true" className="flex size-16 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Icon className="size-8" />
      </span>
      <p className="mt-6 text-sm font-semibold uppercase tracking-wider text-brand-700">
        {t('errors.statusLabel', { status })}
      </p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-ink sm:text-4xl">{t(title)}</h1>
      {/* Only what is true: nothing reports errors to anyone, so the page asks the visitor to tell us. */}
      <p className="mt-3 text-ink-muted">{t(text)}</p>
      {notFound || refused ? null : (
        <Link to="/kontakt" className="mt-2 font-medium text-brand-700 underline underline-offset-4 hover:text-brand-900">
          {t('errors.contactLink')}
        </Link>
      )}
      <div className="mt-8 flex w-full flex-col justify-center gap-3 sm:w-auto sm:flex-row">
        <Link
          to="/"
          className="inline-flex min-h-11 items-center justify-center gap-2 rounded-md bg-brand-600 px-5 font-semibold text-white transition-colors hover:bg-brand-700"
        >
          <House aria-hidden="true" className="size-4" />
          {t('errors.backHome')}
        </Link>
        <Link
          to="/calculator"
          className="inline-flex min-h-11 items-center justify-center gap-2 rounded-md border border-surface-line bg-surface px-5 font-semibold text-ink transition-colors hover:bg-surface-subtle"
        >
          <Calculator aria-hidden="true" className="size-4" />
          {t('errors.toCalculator')}
        </Link>
      </div>
      {import.meta.env.DEV ? <DevErrorDetails error={error} /> : null}
    </main>
  );
}

/** The status of the error page the server rendered, while the browser hydrates it. */
function renderedStatus(): number | null {
  if (typeof document === 'undefined') return null;
  const value = Number(document.querySelector('main[data-error-status]')?.getAttribute('data-error-status'));
  return value === 503 ? value : null;
}

/** Development only: what went wrong, for the engineer. Production builds drop this branch. */
function DevErrorDetails({ error }: { error: unknown }) {
  const { t } = useTranslation();
  let text: string;
  if (isRouteErrorResponse(error)) {
    text = `${error.status} ${error.statusText}\n${typeof error.data === 'string' ? error.data : JSON.stringify(error.data, null, 2)}`;
  } else if (error instanceof Error) {
    text = error.stack ?? `${error.name}: ${error.message}`;
  } else {
    text = String(error);
  }
  return (
    <details className="mt-10 w-full rounded-card border border-danger-600/30 bg-danger-50 text-left">
      <summary className="px-4 py-3 text-sm font-semibold text-danger-700">{t('errors.devDetails')}</summary>
      <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-words border-t border-danger-600/30 px-4 py-3 text-xs text-ink">
        {text}
      </pre>
    </details>
  );
}
