import { Form } from '@remix-run/react';
import { Download, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { buttonClassName } from '~/components/ui/button-link';
import { inputClassName } from '~/components/ui/field';

const cardClass = 'rounded-card border border-surface-line bg-surface p-5 shadow-card sm:p-6';

/**
 * /profile: 'Meine Daten herunterladen' (a plain link to the JSON export) and
 * 'Konto löschen' (a <details> that opens the confirmation with the current
 * password; both work without JavaScript).
 */
export function AccountDataCards({ deleteError, pending }: { deleteError: string | null; pending: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <>
      <section id="meine-daten" aria-labelledby="my-data-title" className={cardClass}>
        <h2 id="my-data-title" className="text-lg font-semibold text-ink">
          {t('ownAccount.dataTitle')}
        </h2>
        <p className="mt-1 text-sm text-ink-muted">{t('ownAccount.dataText')}</p>
        <a href="/api/profile/export" download className={buttonClassName({ variant: 'secondary', className: 'mt-4' })} data-testid="export-data">
          <Download aria-hidden="true" className="size-4" />
          {t('ownAccount.download')}
        </a>
      </section>
      <section id="konto-loeschen" aria-labelledby="delete-account-title" className={`${cardClass} border-danger-600/30`}>
        <h2 id="delete-account-title" className="text-lg font-semibold text-danger-700">
          {t('ownAccount.deleteTitle')}
        </h2>
        <p className="mt-1 text-sm text-ink-muted">{t('ownAccount.deleteText')}</p>
        <details className="mt-4" open={deleteError ? true : undefined}>
          <summary className={buttonClassName({ variant: 'secondary', className: 'cursor-pointer list-none text-danger-700' })}>
            <Trash2 aria-hidden="true" className="size-4" />
            {t('ownAccount.deleteButton')}
          </summary>
          <Form method="post" action="/profile#konto-loeschen" className="mt-4 space-y-3 rounded-md border border-danger-600/40 bg-danger-50 p-4">
            <input type="hidden" name="intent" value="deleteAccount" />
            <p className="text-sm font-medium text-danger-700">{t('ownAccount.deleteText')}</p>
            <div>
              <label htmlFor="delete-current-password" className="mb-1.5 block text-sm font-medium text-ink">
                {t('ownAccount.currentPassword')}
              </label>
              <input
                id="delete-current-password"
                name="currentPassword"
                type="password"
                required
                autoComplete="current-password"
                aria-invalid={deleteError ? true : undefined}
                aria-describedby={deleteError ? 'delete-account-error' : undefined}
                className={inputClassName}
              />
              {deleteError ? (
                <p id="delete-account-error" role="alert" className="mt-1.5 text-sm text-danger-700">
                  {deleteError}
                </p>
              ) : null}
            </div>
            <button type="submit" disabled={pending} className={buttonClassName({ className: 'bg-danger-600 hover:bg-danger-700' })}>
              {t('ownAccount.confirmButton')}
            </button>
          </Form>
        </details>
      </section>
    </>
  );
}
