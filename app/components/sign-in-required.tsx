import { Lock, LogIn } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from './ui/button-link';

export type SignInFeature = 'projects' | 'printers' | 'filaments' | 'packaging' | 'shipping' | 'marketplaces' | 'premium';

/**
 * What visitors see on the pages that need an account (spec §2): a card with
 * an 'Anmelden' button to /api/login, which leads to /auth and back here.
 */
export function SignInRequired({ feature, redirectTo }: { feature: SignInFeature; redirectTo?: string }) {
  const { t } = useTranslation();
  const href = redirectTo ? `/api/login?${new URLSearchParams({ redirectTo })}` : '/api/login';
  return (
    <section
      data-sign-in-required
      aria-labelledby="sign-in-required-title"
      className="mx-auto max-w-md rounded-card border border-surface-line bg-surface p-6 text-center shadow-card sm:p-8"
    >
      <span aria-hidden="true" className="mx-auto flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Lock className="size-7" />
      </span>
      <h2 id="sign-in-required-title" className="mt-4 text-xl font-bold text-ink">
        {t('signInRequired.title')}
      </h2>
      <p className="mt-2 text-ink-muted">{t('signInRequired.text', { feature: t(`signInRequired.features.${feature}`) })}</p>
      <ButtonLink to={href} className="mt-6">
        <LogIn aria-hidden="true" className="size-4" />
        {t('signInRequired.button')}
      </ButtonLink>
    </section>
  );
}
