import { Link, NavLink } from '@remix-run/react';
import { useTranslation } from 'react-i18next';

export function SiteHeader() {
  const { t } = useTranslation();
  return (
    <header data-site-header className="border-b border-surface-line bg-surface">
      <nav aria-label={t('nav.mainNavigation')} className="mx-auto flex max-w-page items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="text-lg font-bold text-brand-700">
          {t('appName')}
        </Link>
        <div className="flex items-center gap-3">
          <NavLink to="/calculator" className="rounded px-2 py-1 text-ink-muted hover:text-brand-700">
            {t('nav.calculator')}
          </NavLink>
          <Link to="/auth" className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700">
            {t('nav.login')}
          </Link>
        </div>
      </nav>
    </header>
  );
}
