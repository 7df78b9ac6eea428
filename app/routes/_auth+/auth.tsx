import { readFormData } from '~/web/form-data.server';
import { parseSubmission } from '~/web/form-submission.server';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Calculator, CheckCircle2, Mail, MailWarning } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { FormAlert, PasswordField, SubmitButton, TextField } from '~/components/ui/field';
import { listOf } from '~/components/legal-page';
import { getServerT } from '~/i18n.server';
import { EMAIL_MAX_LENGTH, loginSchema, registerSchema, resendVerificationSchema } from '~/domain/auth-schemas';
import { login, register, resendVerificationEmail } from '~/models/accounts.server';
import { getOptionalUserId, getRequestContext, safeRedirect, signInHeaders } from '~/services/auth.server';
import { readDeviceTokens } from '~/services/device-cookie.server';
import { translateMessage } from '~/lib/messages';
import { pageResult } from '~/web/result-response.server';

export const handle = { i18n: ['account', 'auth', 'signin'] };

type Tab = 'login' | 'register';

/** Where /auth links go, keeping the place to return to after sign-in. */
function authHref(tab: Tab, redirectTo: string | null) {
  const params = new URLSearchParams();
  if (tab === 'register') params.set('tab', 'register');
  if (redirectTo) params.set('redirectTo', redirectTo);
  const query = params.toString();
  return query ? `/auth?${query}` : '/auth';
}

/** A `redirectTo` worth keeping (a safe local path other than the default), else null. */
function keptRedirect(value: unknown): string | null {
  const safe = safeRedirect(value, '');
  return safe && safe !== '/calculator' ? safe : null;
}

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const redirectTo = keptRedirect(url.searchParams.get('redirectTo'));
  // Signed-in users have nothing to do here.
  if (await getOptionalUserId(args)) throw redirect(safeRedirect(redirectTo));
  const t = await getServerT('account');
  return {
    tab: (url.searchParams.get('tab') === 'register' ? 'register' : 'login') as Tab,
    redirectTo,
    meta: { title: t('auth.metaTitle'), description: t('auth.metaDescription') },
  };
}

export async function action(args: ActionFunctionArgs) {
  const formData = await readFormData(args.request);
  const intent = formData.get('intent');
  const ctx = await getRequestContext(args);
  const t = await getServerT(['account', 'auth']);

  if (intent === 'register') {
    const submission = parseSubmission(formData, registerSchema);
    const hideFields = ['password', 'confirmPassword'];
    if (submission.status !== 'success') {
      return data({ intent, result: submission.reply({ hideFields }) }, { status: 400 });
    }
    // Same answer whether or not the address already had an account (its owner gets a mail saying so).
    return pageResult(submission, await register(ctx, submission.value), () => ({
      redirectTo: authHref('login', keptRedirect(formData.get('redirectTo'))),
      toast: { type: 'success', title: t('account:auth.toast.registerSuccess'), description: t('auth:messages.registerSuccessNext') },
    }), { hideFields, extra: { intent } });
  }

  if (intent === 'resend') {
    const submission = parseSubmission(formData, resendVerificationSchema);
    // A refused resend keeps the "not confirmed" notice on screen, with the reason in it (and the address, never beyond its limit).
    const email = String(formData.get('email') ?? '').slice(0, EMAIL_MAX_LENGTH);
    if (submission.status !== 'success') return data({ intent, result: submission.reply(), email }, { status: 400 });
    return pageResult(submission, await resendVerificationEmail(ctx, submission.value), () => ({
      redirectTo: '/auth',
      toast: { type: 'success', title: t('account:auth.toast.resendSent'), description: t('auth:messages.resendSent') },
    }), { extra: { intent, email } });
  }

  // Default: sign in.
  const submission = parseSubmission(formData, loginSchema);
  const hideFields = ['password'];
  if (submission.status !== 'success') {
    return data({ intent: 'login' as const, result: submission.reply({ hideFields }) }, { status: 400 });
  }
  // The browser's device cookie decides where the attempt is counted (docs/sign-in-protection.md);
  // a locked sign-in (429) offers the sign-in link by mail (`locked`, LockedNotice).
  const result = await login(ctx, { ...submission.value, devices: await readDeviceTokens(args.request) });
  return pageResult(submission, result, async ({ user, firstSignIn }) => {
    const name = user.firstName?.trim() || user.email;
    return {
      redirectTo: safeRedirect(submission.value.redirectTo),
      headers: await signInHeaders(args.request, user.id),
      // The very first sign-in is no return (issue 24 §2).
      toast: { type: 'success', title: t('account:auth.toast.loginSuccess'), description: t(firstSignIn ? 'account:auth.toast.welcomeFirst' : 'account:auth.toast.welcome', { name }) },
    };
  }, { hideFields, extra: { intent: 'login' as const, email: submission.value.email }, flags: { locked: 'rateLimited' } });
}

export default function AuthPage() {
  const { tab: requestedTab, redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation('account');
  // After a failed registration the page re-renders with the register form and its errors.
  const tab: Tab = actionData?.intent === 'register' ? 'register' : actionData?.intent === 'login' ? 'login' : requestedTab;

  return (
    <main className="mx-auto grid max-w-page gap-8 px-4 py-8 sm:py-12 lg:grid-cols-2 lg:items-start">
      <div className="mx-auto w-full max-w-md">
        <nav aria-label={t('auth.tabsLabel')} className="mb-6 grid grid-cols-2 gap-1 rounded-lg border border-surface-line bg-surface-subtle p-1">
          {(['login', 'register'] as const).map((item) => (
            <Link
              key={item}
              to={authHref(item, redirectTo)}
              replace
              aria-current={tab === item ? 'page' : undefined}
              className={`flex min-h-10 items-center justify-center rounded-md text-sm font-semibold transition-colors ${
                tab === item ? 'bg-surface text-brand-700 shadow-card' : 'text-ink-muted hover:text-ink'
              }`}
            >
              {t(item === 'login' ? 'auth.tabLogin' : 'auth.tabRegister')}
            </Link>
          ))}
        </nav>
        <section className="rounded-card border border-surface-line bg-surface p-5 shadow-card sm:p-6">
          {tab === 'login' ? <LoginForm redirectTo={redirectTo} /> : <RegisterForm redirectTo={redirectTo} />}
        </section>
      </div>
      <MarketingPanel />
    </main>
  );
}

function usePendingIntent(intent: string) {
  const navigation = useNavigation();
  return navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post' && navigation.formData?.get('intent') === intent;
}

function LoginForm({ redirectTo }: { redirectTo: string | null }) {
  const { t } = useTranslation('account');
  const actionData = useActionData<typeof action>();
  const loginResult = actionData?.intent === 'login' ? actionData : undefined;
  const resendResult = actionData?.intent === 'resend' ? actionData : undefined;
  const pending = usePendingIntent('login');
  const [form, fields] = useForm({
    id: 'login',
    lastResult: loginResult?.result,
    constraint: getZodConstraint(loginSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });
  const emailOf = (value: object) => ('email' in value ? String(value.email) : '');
  const unverified = loginResult && 'emailNotVerified' in loginResult ? emailOf(loginResult) : resendResult ? emailOf(resendResult) : null;
  // Conform keeps the last errors until the next result; after a resend (a redirect, no login result) they are stale.
  const loginErrors = loginResult ? form.errors : undefined;

  return (
    <>
      <h1 className="text-xl font-bold text-ink">{t('auth.login.title')}</h1>
      <p className="mt-1 text-sm text-ink-muted">{t('auth.login.intro')}</p>
      {unverified !== null ? (
        // The resend form has only the (hidden) address: its own errors are shown in the notice, too.
        <UnverifiedNotice email={unverified} errors={[...(resendResult?.result.error?.[''] ?? []), ...(resendResult?.result.error?.email ?? [])]} />
      ) : (
        <FormAlert id={form.errorId} errors={loginErrors} title={t('auth.toast.loginFailed')} />
      )}
      {loginResult && 'locked' in loginResult && loginResult.locked ? <LockedNotice email={emailOf(loginResult)} /> : null}
      <Form method="post" {...getFormProps(form)} className="mt-5 space-y-4">
        <input type="hidden" name="intent" value="login" />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <TextField label={t('fields.email')} meta={fields.email} type="email" autoComplete="email" placeholder={t('fields.emailPlaceholder')} />
        <PasswordField label={t('fields.password')} meta={fields.password} autoComplete="current-password" />
        <div className="flex justify-end">
          <Link to="/forgot-password" className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
            {t('auth.login.forgot')}
          </Link>
        </div>
        <SubmitButton pending={pending} pendingLabel={t('auth.login.pending')} className="w-full">
          {t('auth.login.submit')}
        </SubmitButton>
      </Form>
      <p className="mt-5 text-center text-sm text-ink-muted">
        {t('auth.login.noAccount')}{' '}
        <Link to={authHref('register', redirectTo)} replace className="font-medium text-brand-700 underline-offset-4 hover:underline">
          {t('auth.login.toRegister')}
        </Link>
      </p>
    </>
  );
}

/**
 * 429 on sign-in: strangers' guesses (or one's own) locked this address here.
 * The way in without waiting: a sign-in link by mail (/auth/link), one click.
 */
function LockedNotice({ email }: { email: string }) {
  const { t } = useTranslation('signin');
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formAction === '/auth/link';
  return (
    <div data-sign-in-locked className="mt-4 rounded-md border border-brand-600/40 bg-brand-50 px-3 py-3 text-sm text-ink">
      <p className="flex items-center gap-2 font-semibold">
        <Mail aria-hidden="true" className="size-4 text-brand-700" />
        {t('locked.title')}
      </p>
      <p className="mt-1 text-ink-muted">{t('locked.text')}</p>
      <Form method="post" action="/auth/link" className="mt-3">
        <input type="hidden" name="intent" value="send" />
        <input type="hidden" name="email" value={email} />
        <SubmitButton pending={pending} pendingLabel={t('locked.pending')} variant="secondary">
          {t('locked.submit')}
        </SubmitButton>
      </Form>
    </div>
  );
}

/** 403 emailNotVerified: the spec's message and a form that mails a new confirmation link. */
function UnverifiedNotice({ email, errors }: { email: string; errors: string[] | null }) {
  const { t } = useTranslation(['account', 'auth']);
  const pending = usePendingIntent('resend');
  return (
    <div role="alert" data-email-not-verified className="mt-4 rounded-md border border-accent-500/50 bg-accent-500/10 px-3 py-3 text-sm text-ink">
      <p className="flex items-center gap-2 font-semibold">
        <MailWarning aria-hidden="true" className="size-4 text-accent-600" />
        {t('account:auth.unverified.title')}
      </p>
      <p className="mt-1 text-ink-muted">{t('auth:messages.emailNotVerified')}</p>
      {errors?.map((error) => (
        <p key={error} className="mt-2 font-medium text-danger-700">
          {translateMessage(t, error)}
        </p>
      ))}
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="resend" />
        <input type="hidden" name="email" value={email} />
        <SubmitButton pending={pending} pendingLabel={t('account:auth.unverified.resendPending')} variant="secondary">
          {t('account:auth.unverified.resend')}
        </SubmitButton>
      </Form>
    </div>
  );
}

function RegisterForm({ redirectTo }: { redirectTo: string | null }) {
  const { t } = useTranslation('account');
  const actionData = useActionData<typeof action>();
  const pending = usePendingIntent('register');
  const [form, fields] = useForm({
    id: 'register',
    lastResult: actionData?.intent === 'register' ? actionData.result : undefined,
    constraint: getZodConstraint(registerSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: registerSchema }),
  });

  return (
    <>
      <h1 className="text-xl font-bold text-ink">{t('auth.register.title')}</h1>
      <p className="mt-1 text-sm text-ink-muted">{t('auth.register.intro')}</p>
      <FormAlert id={form.errorId} errors={form.errors} title={t('auth.toast.registerFailed')} />
      <Form method="post" {...getFormProps(form)} className="mt-5 space-y-4">
        <input type="hidden" name="intent" value="register" />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={t('fields.firstName')} meta={fields.firstName} autoComplete="given-name" />
          <TextField label={t('fields.lastName')} meta={fields.lastName} autoComplete="family-name" />
        </div>
        <TextField label={t('fields.email')} meta={fields.email} type="email" autoComplete="email" placeholder={t('fields.emailPlaceholder')} />
        <PasswordField label={t('fields.password')} meta={fields.password} autoComplete="new-password" hint={t('fields.passwordHint')} />
        <PasswordField label={t('fields.confirmPassword')} meta={fields.confirmPassword} autoComplete="new-password" />
        <SubmitButton pending={pending} pendingLabel={t('auth.register.pending')} className="w-full">
          {t('auth.register.submit')}
        </SubmitButton>
      </Form>
      <p className="mt-5 text-center text-sm text-ink-muted">
        {t('auth.register.haveAccount')}{' '}
        <Link to={authHref('login', redirectTo)} replace className="font-medium text-brand-700 underline-offset-4 hover:underline">
          {t('auth.register.toLogin')}
        </Link>
      </p>
    </>
  );
}

function MarketingPanel() {
  const { t } = useTranslation('account');
  const points = listOf<string>(t('auth.marketing.points', { returnObjects: true }));
  return (
    <aside className="rounded-card bg-brand-700 p-6 text-white shadow-card sm:p-8">
      <span aria-hidden="true" className="flex size-12 items-center justify-center rounded-lg bg-white/15">
        <Calculator className="size-6" />
      </span>
      <h2 className="mt-4 text-2xl font-bold">{t('auth.marketing.title')}</h2>
      <p className="mt-2 text-brand-100">{t('auth.marketing.intro')}</p>
      <ul className="mt-6 space-y-3">
        {points.map((point) => (
          <li key={point} className="flex items-start gap-3">
            <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-200" />
            <span>{point}</span>
          </li>
        ))}
      </ul>
    </aside>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.meta.title }, { name: 'description', content: data.meta.description }] : [];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
