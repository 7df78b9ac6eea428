import type { MetaFunction } from '@remix-run/node';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { PlaceholderPage } from '~/components/placeholder-page';
import { getServerT } from '~/i18n.server';

/** Placeholder until its issue: sign-in-required card for visitors, 'kommt bald' for users. */
export async function loader() {
  const t = await getServerT('common');
  return { title: t('pages.printers.meta') };
}

export default function PrintersPage() {
  return <PlaceholderPage page="printers" />;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
