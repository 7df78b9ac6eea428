import { Link } from '@remix-run/react';
import { LogIn } from 'lucide-react';
import { useTranslation } from 'react-i18next';

type Feature = 'imageUpload' | 'pickers' | 'save';

/**
 * Where signed-in users will get pickers, uploads or the save button: visitors
 * are asked to sign in; signed-in users are told what is coming (issue 8 §4),
 * never asked to sign in again.
 */
export function SignInPrompt({ messageKey, signedIn }: { messageKey: Feature; signedIn: boolean }) {
  const { t } = useTranslation('calculator');
  if (signedIn) {
    return (
      <p
        data-coming-soon={messageKey}
        className="rounded-md border border-dashed border-surface-line bg-surface-subtle px-3 py-2.5 text-sm text-ink-muted"
      >
        {t(`comingSoon.${messageKey}`)}
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-dashed border-surface-line bg-surface-subtle px-3 py-2.5 text-sm text-ink-muted">
      <p>{t(`signIn.${messageKey}`)}</p>
      <Link
        to="/auth"
        className="no-print inline-flex items-center gap-1.5 rounded-md border border-brand-600 px-2.5 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50"
      >
        <LogIn aria-hidden="true" className="h-4 w-4" />
        {t('signIn.button')}
      </Link>
    </div>
  );
}
