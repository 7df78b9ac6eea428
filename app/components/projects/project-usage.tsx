import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { ProjectUsage } from '~/domain/projects';

/**
 * Issue 24 §4: a free user's '2 von 3 Projekten' with the Premium link, on the project
 * list and at the calculator's save button, so the limit is known before it is hit.
 * Nothing for Premium (usage null).
 */
export function ProjectUsageNote({ usage, className = '' }: { usage: ProjectUsage | null | undefined; className?: string }) {
  const { t } = useTranslation('project-tools');
  if (!usage) return null;
  const full = usage.used >= usage.limit;
  return (
    <p data-project-usage className={`text-sm ${full ? 'text-danger-700' : 'text-ink-muted'} ${className}`}>
      <span className="font-semibold">{t('usage.count', { used: usage.used, limit: usage.limit })}</span>
      {' · '}
      <Link to="/premium" className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-900">
        {t('usage.premium')}
      </Link>
    </p>
  );
}
