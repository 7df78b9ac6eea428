import { Link } from '@remix-run/react';
import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/**
 * Shown on every page while the subscription is `past_due` (Premium stays):
 * a link to /premium, where 'Zahlungsdaten und Rechnungen' opens Stripe's portal.
 * Its texts live in `common` so every page has them without loading `premium`.
 */
export default function PastDueBanner() {
  const { t } = useTranslation('common');
  return (
    <div role="alert" data-past-due-banner className="border-b border-amber-300 bg-amber-50 print:hidden">
      <p className="mx-auto flex max-w-page flex-wrap items-center gap-2 px-4 py-3 text-sm text-amber-900">
        <TriangleAlert aria-hidden="true" className="size-4 shrink-0" />
        <span>{t('premiumBanner.pastDue')}</span>
        <Link to="/premium" className="font-semibold underline">
          {t('premiumBanner.link')}
        </Link>
      </p>
    </div>
  );
}
