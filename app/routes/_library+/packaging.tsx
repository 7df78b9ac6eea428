import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { LibraryPage } from '~/components/library/library-page';
import { libraryAction, libraryLoader } from '~/web/library-route.server';

/** /packaging: one of the five library pages; everything comes from the kind's definition. */
export const handle = { i18n: ['library'] };

export const loader = (args: LoaderFunctionArgs) => libraryLoader('packaging', args);

export const action = (args: ActionFunctionArgs) => libraryAction('packaging', args);

export default function PackagingPage() {
  return <LibraryPage />;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
