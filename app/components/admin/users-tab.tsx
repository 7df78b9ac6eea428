import { Form, Link } from '@remix-run/react';
import { Search, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { buttonClassName } from '~/components/ui/button-link';
import { inputClassName } from '~/components/ui/field';
import { Pagination } from '~/components/ui/pagination';
import type { AdminUserPage } from '~/domain/admin-views';
import { formatNumber } from '~/lib/number';

export type UsersTabData = AdminUserPage;

const dateFormat = new Intl.DateTimeFormat('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Berlin' });

/** `/admin?tab=users&q=…&seite=…`; deleting asks first (`&loeschen=<id>`), with and without JavaScript. */
export function usersHref({ search, page, remove }: { search: string; page?: number; remove?: string }): string {
  const params = new URLSearchParams({ tab: 'users' });
  if (search) params.set('q', search);
  if (page && page > 1) params.set('seite', String(page));
  if (remove) params.set('loeschen', remove);
  return `/admin?${params}`;
}

export function UsersTab({ data, currentUserId, confirmId }: { data: UsersTabData; currentUserId: string; confirmId: string | null }) {
  const { t } = useTranslation('admin');
  const confirm = confirmId ? data.users.find((user) => user.id === confirmId) : undefined;
  return (
    <div className="space-y-5">
      <Form method="get" action="/admin" className="flex flex-col gap-2 sm:flex-row sm:items-end" role="search">
        <input type="hidden" name="tab" value="users" />
        <div className="min-w-0 flex-1">
          <label htmlFor="user-search" className="mb-1.5 block text-sm font-medium text-ink">
            {t('users.searchLabel')}
          </label>
          <input id="user-search" name="q" type="search" defaultValue={data.search} placeholder={t('users.searchPlaceholder')} className={inputClassName} maxLength={100} />
        </div>
        <button type="submit" className={buttonClassName({ variant: 'secondary' })}>
          <Search aria-hidden="true" className="size-4" />
          {t('users.search')}
        </button>
      </Form>
      <p className="text-sm text-ink-muted" data-testid="user-count">
        {data.totalExact
          ? t('users.count', { count: data.total, number: formatNumber(data.total, 0) })
          : t('users.countMore', { number: formatNumber(data.total, 0) })}
      </p>

      {confirm ? (
        <section role="alertdialog" aria-labelledby="delete-user-title" aria-describedby="delete-user-text" className="rounded-card border border-danger-600/40 bg-danger-50 p-4 sm:p-5" data-testid="delete-user-confirm">
          <h3 id="delete-user-title" className="font-semibold text-danger-700">
            {t('users.confirmTitle')}
          </h3>
          <p id="delete-user-text" className="mt-2 text-sm text-ink">
            {t('users.confirmText', { email: confirm.email, projects: confirm.projectCount })}
          </p>
          <Form method="post" action={usersHref({ search: data.search, page: data.page })} className="mt-4 flex flex-wrap gap-3">
            <input type="hidden" name="intent" value="deleteUser" />
            <input type="hidden" name="id" value={confirm.id} />
            <button type="submit" className={buttonClassName({ className: 'bg-danger-600 hover:bg-danger-700' })}>
              <Trash2 aria-hidden="true" className="size-4" />
              {t('users.confirm')}
            </button>
            <Link to={usersHref({ search: data.search, page: data.page })} className={buttonClassName({ variant: 'secondary' })}>
              {t('users.cancel')}
            </Link>
          </Form>
        </section>
      ) : null}

      {data.users.length === 0 ? (
        <p className="rounded-card border border-surface-line bg-surface p-6 text-center text-ink-muted">{t('users.empty')}</p>
      ) : (
        // relative: the screen-reader-only texts inside are placed in here, not past the phone's edge.
        <div className="relative overflow-x-auto rounded-card border border-surface-line bg-surface shadow-card">
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">{t('users.caption')}</caption>
            <thead className="bg-surface-subtle text-xs uppercase tracking-wide text-ink-muted">
              <tr>
                <th scope="col" className="px-3 py-2">{t('users.email')}</th>
                <th scope="col" className="px-3 py-2">{t('users.name')}</th>
                <th scope="col" className="px-3 py-2">{t('users.confirmed')}</th>
                <th scope="col" className="px-3 py-2">{t('users.premium')}</th>
                <th scope="col" className="px-3 py-2">{t('users.admin')}</th>
                <th scope="col" className="px-3 py-2">{t('users.created')}</th>
                <th scope="col" className="px-3 py-2 text-right">{t('users.projects')}</th>
                <th scope="col" className="px-3 py-2"><span className="sr-only">{t('users.actions')}</span></th>
              </tr>
            </thead>
            <tbody>
              {data.users.map((user) => (
                <tr key={user.id} className="border-t border-surface-line" data-user-row={user.email}>
                  <td className="min-w-[12rem] max-w-[18rem] break-all px-3 py-2 font-medium text-ink">{user.email}</td>
                  <td className="px-3 py-2">{[user.firstName, user.lastName].filter(Boolean).join(' ')}</td>
                  <td className="px-3 py-2">{user.emailVerified ? t('users.yes') : t('users.no')}</td>
                  <td className="px-3 py-2">
                    {user.isPremium ? t('users.yes') : t('users.no')}
                    {user.subscriptionStatus ? <span className="text-ink-muted"> ({user.subscriptionStatus})</span> : null}
                  </td>
                  <td className="px-3 py-2">{user.isAdmin ? t('users.yes') : t('users.no')}</td>
                  <td className="whitespace-nowrap px-3 py-2">{dateFormat.format(new Date(user.createdAt))}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{user.projectCount}</td>
                  <td className="px-3 py-2 text-right">
                    {user.id === currentUserId ? (
                      <span className="text-ink-muted">{t('users.you')}</span>
                    ) : (
                      <Link
                        to={usersHref({ search: data.search, page: data.page, remove: user.id })}
                        aria-label={t('users.deleteLabel', { email: user.email })}
                        className={buttonClassName({ variant: 'ghost', size: 'sm', className: 'text-danger-700' })}
                        preventScrollReset
                      >
                        <Trash2 aria-hidden="true" className="size-4" />
                        {t('users.delete')}
                      </Link>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={data.page} hasNext={data.page * data.pageSize < data.total} href={(page) => usersHref({ search: data.search, page })} />
    </div>
  );
}
