import { useTranslation } from 'react-i18next';

const STATUS_CLASS: Record<string, string> = {
  draft: 'border border-surface-line bg-surface-subtle text-ink',
  sent: 'bg-brand-50 text-brand-900',
  accepted: 'bg-success-50 text-success-600',
  rejected: 'bg-danger-50 text-danger-700',
  expired: 'bg-surface-subtle text-ink-muted',
};

/** Entwurf, Versendet, Angenommen, Abgelehnt, Abgelaufen. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('quotes');
  return <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[status] ?? ''}`}>{t(`status.${status}`)}</span>;
}

