import { Link } from '@remix-run/react';
import { Box } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CookieSettingsButton } from './cookie-consent';

const footerLinks = [
  { to: '/datenschutz', labelKey: 'footer.privacy' },
  { to: '/impressum', labelKey: 'footer.imprint' },
  { to: '/kontakt', labelKey: 'footer.contact' },
] as const;

const footerLinkClass =
  'inline-flex min-h-6 items-center rounded-sm text-ink-muted underline-offset-4 hover:text-brand-700 hover:underline';

export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer data-site-footer className="mt-12 border-t border-surface-line bg-surface">
      <div className="mx-auto flex max-w-page flex-col gap-6 px-4 py-8 md:flex-row md:items-center md:justify-between">
        <div className="space-y-1">
          <p className="flex items-center gap-2 font-semibold text-ink">
            <span aria-hidden="true" className="flex size-6 items-center justify-center rounded-md bg-brand-600 text-white">
              <Box className="size-4" strokeWidth={2.25} />
            </span>
            {t('appName')}
          </p>
          <p className="text-sm text-ink-muted">{t('footer.copyright', { year: new Date().getFullYear() })}</p>
        </div>
        <nav aria-label={t('footer.navigation')}>
          <ul className="flex flex-wrap items-center gap-x-6 gap-y-3 text-sm">
            {footerLinks.map((item) => (
              <li key={item.to}>
                <Link to={item.to} className={footerLinkClass}>
                  {t(item.labelKey)}
                </Link>
              </li>
            ))}
            <li>
              {/* Without JavaScript: reloads this page with ?cookie-settings=1 (see cookie-consent.tsx). */}
              <CookieSettingsButton className={`${footerLinkClass} cursor-pointer`} />
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
