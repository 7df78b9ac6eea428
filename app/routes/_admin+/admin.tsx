import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { House, ShieldX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ComingSoon } from '~/components/placeholder-page';
import { ButtonLink } from '~/components/ui/button-link';
import { getServerT } from '~/i18n.server';
import { requireAdmin } from '~/services/auth.server';

/**
 * Admin area (filled by a later issue). Visitors go to /api/login; signed-in
 * non-admins get the access-denied card with status 403.
 */
export async function loader(args: LoaderFunctionArgs) {
  const t = await getServerT('common');
  const title = t('pages.admin.meta');
  try {
    await requireAdmin(args);
  } catch (error) {
    // Signed-in non-admins get the access-denied card (with its 403), not the error page.
    if (error instanceof Response && error.status === 403) return data({ allowed: false, title }, { status: 403 });
    throw error;
  }
  return { allowed: true, title };
}

export default function AdminPage() {
  const { allowed } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main className="mx-auto max-w-page px-4 py-8 sm:py-12">
      {allowed ? (
        <>
          <h1 className="mb-6 text-2xl font-bold sm:text-3xl">{t('pages.admin.title')}</h1>
          <ComingSoon />
        </>
      ) : (
        <section
          data-access-denied
          className="mx-auto max-w-md rounded-card border border-danger-600/30 bg-surface p-6 text-center shadow-card sm:p-8"
        >
          <span aria-hidden="true" className="mx-auto flex size-14 items-center justify-center rounded-full bg-danger-50 text-danger-700">
            <ShieldX className="size-7" />
          </span>
          <h1 className="mt-4 text-xl font-bold text-ink">{t('accessDenied.title')}</h1>
          <p className="mt-2 text-ink-muted">{t('accessDenied.text')}</p>
          <ButtonLink to="/" variant="secondary" className="mt-6">
            <House aria-hidden="true" className="size-4" />
            {t('accessDenied.back')}
          </ButtonLink>
        </section>
      )}
    </main>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
