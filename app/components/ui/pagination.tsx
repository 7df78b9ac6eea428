import { Link } from '@remix-run/react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { buttonClassName } from './button-link';

/**
 * Previous / next links of a paged list (projects, the libraries): plain
 * links, so paging works without JavaScript. Nothing when there is one page.
 */
export function Pagination({ page, hasNext, href }: { page: number; hasNext: boolean; href: (page: number) => string }) {
  const { t } = useTranslation('common');
  if (page <= 1 && !hasNext) return null;
  return (
    <nav aria-label={t('pagination.label')} className="mt-8 flex flex-wrap items-center justify-center gap-3">
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
          <ChevronLeft aria-hidden="true" className="size-4" />
          {t('pagination.previous')}
        </Link>
      ) : null}
      <span aria-current="page" className="text-sm text-ink-muted">
        {t('pagination.page', { page })}
      </span>
      {hasNext ? (
        <Link to={href(page + 1)} rel="next" className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
          {t('pagination.next')}
          <ChevronRight aria-hidden="true" className="size-4" />
        </Link>
      ) : null}
    </nav>
  );
}
