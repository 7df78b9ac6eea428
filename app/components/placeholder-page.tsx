import { useLocation, useRouteLoaderData } from '@remix-run/react';
import { Calculator, Hammer } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SignInRequired, type SignInFeature } from './sign-in-required';
import { ButtonLink } from './ui/button-link';

/**
 * A page that later issues fill (projects, libraries, premium): visitors get
 * the sign-in-required card, signed-in users a 'kommt bald' card. Whether
 * someone is signed in comes from the root loader (no second lookup).
 */
export function PlaceholderPage({ page }: { page: SignInFeature }) {
  const { t } = useTranslation();
  // Only whether someone is signed in: the root loader's `user` (see root.tsx).
  const root = useRouteLoaderData<{ user: object | null }>('root');
  const location = useLocation();
  return (
    <main className="mx-auto max-w-page px-4 py-8 sm:py-12">
      <h1 className="mb-6 text-2xl font-bold sm:text-3xl">{t(`pages.${page}.title`)}</h1>
      {root?.user ? <ComingSoon /> : <SignInRequired feature={page} redirectTo={location.pathname} />}
    </main>
  );
}

export function ComingSoon() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-md rounded-card border border-dashed border-surface-line bg-surface p-6 text-center shadow-card sm:p-8">
      <span aria-hidden="true" className="mx-auto flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Hammer className="size-7" />
      </span>
      <p className="mt-4 text-ink-muted">{t('comingSoon.text')}</p>
      <ButtonLink to="/calculator" variant="secondary" className="mt-6">
        <Calculator aria-hidden="true" className="size-4" />
        {t('comingSoon.toCalculator')}
      </ButtonLink>
    </section>
  );
}
