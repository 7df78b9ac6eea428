import { data, type MetaFunction } from '@remix-run/node';
import { isRouteErrorResponse } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { getServerT } from '~/i18n.server';

// Any unknown path: a German 404 page with status 404. The thrown data carries
// the document title, since meta() has no translation instance of its own.
export async function loader() {
  const t = await getServerT();
  throw data({ title: t('errors.notFoundDocumentTitle') }, { status: 404 });
}

export default function NotFound() {
  // Never rendered: the loader always throws, so the ErrorBoundary shows.
  return null;
}

export const meta: MetaFunction = ({ error }) => {
  const title = isRouteErrorResponse(error) ? (error.data as { title?: unknown } | null)?.title : undefined;
  return typeof title === 'string' ? [{ title }, { name: 'robots', content: 'noindex' }] : [];
};

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
