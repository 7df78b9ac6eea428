import { isRouteErrorResponse, Link, useRouteError } from '@remix-run/react';
import { useTranslation } from 'react-i18next';

/** German error page for 404s and unexpected errors; used by root and routes. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <p className="text-5xl font-bold text-brand-600">{isRouteErrorResponse(error) ? error.status : 500}</p>
      <h1 className="mt-4 text-2xl font-semibold">{t(notFound ? 'errors.notFoundTitle' : 'errors.serverErrorTitle')}</h1>
      <p className="mt-2 text-ink-muted">{t(notFound ? 'errors.notFoundText' : 'errors.serverErrorText')}</p>
      <div className="mt-8 flex justify-center gap-3">
        <Link to="/" className="rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">{t('errors.backHome')}</Link>
        <Link to="/calculator" className="rounded-md border border-surface-line px-4 py-2 font-medium hover:bg-surface-subtle">{t('errors.toCalculator')}</Link>
      </div>
    </main>
  );
}
