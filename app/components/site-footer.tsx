import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';

export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer data-site-footer className="mt-12 border-t border-surface-line bg-surface">
      <div className="mx-auto flex max-w-page flex-wrap items-center justify-between gap-4 px-4 py-6 text-sm text-ink-muted">
        <p>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
        <ul className="flex flex-wrap gap-4">
          <li><Link to="/datenschutz" className="hover:text-brand-700">{t('footer.privacy')}</Link></li>
          <li><Link to="/impressum" className="hover:text-brand-700">{t('footer.imprint')}</Link></li>
          <li><Link to="/kontakt" className="hover:text-brand-700">{t('footer.contact')}</Link></li>
        </ul>
      </div>
    </footer>
  );
}
