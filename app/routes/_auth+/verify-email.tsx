import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react';
import { CircleCheck, CircleX, House, LogIn, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ButtonLink } from '~/components/ui/button-link';
import { getServerT } from '~/i18n.server';
import { EMAIL_ALREADY_CONFIRMED, verifyEmail } from '~/models/accounts.server';
import { getRequestContext } from '~/services/request-context.server';
import { pageStateResult } from '~/web/result-response.server';

export const handle = { i18n: ['account', 'auth'] };

/** success: confirmed now; already: the link was used before and the address is confirmed; error: anything else. */
type VerifyState = 'success' | 'already' | 'error';

const TITLE_KEYS: Record<VerifyState, string> = {
  success: 'account:verify.successTitle',
  already: 'account:verify.alreadyTitle',
  error: 'account:verify.errorTitle',
};

/**
 * The confirmation link from the mail. Following it is the one GET that
 * changes state: the server confirms here and renders success or error, so
 * it works without JavaScript (and there is no loading state to show).
 */
export async function loader(args: LoaderFunctionArgs) {
  const t = await getServerT('account');
  const meta = { title: t('verify.metaTitle') };
  const ctx = await getRequestContext(args);
  const signedIn = ctx.user !== null;
  const result = await verifyEmail(ctx, { token: new URL(args.request.url).searchParams.get('token') });
  return pageStateResult(
    result,
    ({ change }) => {
      // An address change is not a registration, and a signed-in reader need not be asked to sign in.
      const messageKey = change ? 'auth:messages.emailChangeConfirmed' : signedIn ? 'auth:messages.verifySuccessSignedIn' : 'auth:messages.verifySuccess';
      return { state: 'success' as VerifyState, change, signedIn, messageKey, meta };
    },
    (messageKey) => {
      // A link clicked twice (mail apps open links, people click again): the address is confirmed, say so.
      if (messageKey === EMAIL_ALREADY_CONFIRMED) return { state: 'already' as VerifyState, change: false, signedIn, messageKey, meta };
      return data({ state: 'error' as VerifyState, change: false, signedIn, messageKey, meta }, { status: 400 });
    },
    'auth:messages.verifyFailed',
  );
}

/** The token works once: never re-run the loader for the same address (e.g. after the cookie dialog posts). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.href === nextUrl.href ? false : defaultShouldRevalidate;

export default function VerifyEmailPage() {
  const { state, change, signedIn, messageKey } = useLoaderData<typeof loader>();
  const ok = state !== 'error';
  const { t } = useTranslation(['account', 'auth']);
  const Icon = ok ? CircleCheck : CircleX;
  // Signed in already (an address change, or a confirmation opened in the same browser): the profile, not the sign-in.
  const login = signedIn ? (
    <ButtonLink to="/profile" variant={ok ? 'primary' : 'secondary'}>
      <UserRound aria-hidden="true" className="size-4" />
      {t('account:verify.toProfile')}
    </ButtonLink>
  ) : (
    <ButtonLink to="/auth" variant={ok ? 'primary' : 'secondary'}>
      <LogIn aria-hidden="true" className="size-4" />
      {t('account:verify.toLogin')}
    </ButtonLink>
  );
  const home = (
    <ButtonLink to="/" variant={ok ? 'secondary' : 'primary'}>
      <House aria-hidden="true" className="size-4" />
      {t('account:verify.toHome')}
    </ButtonLink>
  );
  return (
    <main className="mx-auto max-w-md px-4 py-12 sm:py-16">
      <section
        data-verify-state={state}
        className="rounded-card border border-surface-line bg-surface p-6 text-center shadow-card sm:p-8"
      >
        <span
          aria-hidden="true"
          className={`mx-auto flex size-14 items-center justify-center rounded-full ${ok ? 'bg-success-50 text-success-600' : 'bg-danger-50 text-danger-600'}`}
        >
          <Icon className="size-8" />
        </span>
        <h1 className="mt-4 text-2xl font-bold text-ink">{t(change ? 'account:verify.changeTitle' : TITLE_KEYS[state])}</h1>
        <p className="mt-2 text-ink-muted">{t(messageKey)}</p>
        {/* Success: login first, then home. Error: home first, then login (spec §2). */}
        <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
          {ok ? login : home}
          {ok ? home : login}
        </div>
      </section>
    </main>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.meta.title }, { name: 'robots', content: 'noindex' }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
