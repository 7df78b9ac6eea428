import { readFormData } from '~/web/form-data.server';
import { parseSubmission } from '~/web/form-submission.server';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaDescriptor, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation } from '@remix-run/react';
import { CircleCheck, LinkIcon, LogIn } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ButtonLink } from '~/components/ui/button-link';
import { FormAlert, PasswordField, SubmitButton } from '~/components/ui/field';
import { getServerT } from '~/i18n.server';
import { invalidResetLink, resetLinkState, resetPasswordWithToken } from '~/models/accounts.server';
import { resetPasswordSchema } from '~/domain/auth-schemas';
import { getRequestContext } from '~/services/request-context.server';
import { pageFailure, pageResult } from '~/web/result-response.server';

export const handle = { i18n: ['account', 'auth'] };

const REDIRECT_SECONDS = 3;

type State = 'invalid' | 'form' | 'done';

/**
 * No token, or one that no longer works (used, expired, unknown): the invalid-link state; a usable token: the form; after success (`?done=1`,
 * reached by a redirect): the done state. Invalid and done go to /auth after
 * 3 seconds — a meta refresh, so also without JavaScript.
 */
export async function loader(args: LoaderFunctionArgs) {
  const params = new URL(args.request.url).searchParams;
  const token = params.get('token')?.trim() ?? '';
  // A used or expired link says so when it opens, not after a new password was typed.
  const state: State = params.get('done') === '1' ? 'done' : await resetLinkState(await getRequestContext(args), token);
  const t = await getServerT('account');
  return data({ state, token, meta: { title: t('reset.metaTitle') } }, { status: state === 'invalid' ? 400 : 200 });
}

export async function action(args: ActionFunctionArgs) {
  const submission = parseSubmission(await readFormData(args.request), resetPasswordSchema);
  const hideFields = ['password', 'confirmPassword'];
  if (submission.status !== 'success') {
    // A missing token is a broken link, not something to fix in the form.
    if (submission.error?.token) return pageFailure(submission, invalidResetLink(), { hideFields, extra: { invalidToken: true } });
    return data({ result: submission.reply({ hideFields }), invalidToken: false }, { status: 400 });
  }
  let result;
  try {
    result = await resetPasswordWithToken(await getRequestContext(args), submission.value);
  } catch (error) {
    console.error('[reset-password]', error);
    return data({ result: submission.reply({ formErrors: ['account:reset.failed'], hideFields }), invalidToken: false }, { status: 500 });
  }
  const t = await getServerT(['account', 'auth']);
  return pageResult(submission, result, () => ({
    redirectTo: '/reset-password?done=1',
    toast: { type: 'success', title: t('account:reset.doneTitle'), description: t('auth:messages.resetSuccess') },
  }), { hideFields, flags: { invalidToken: 'invalid' } });
}

export default function ResetPasswordPage() {
  const { state, token } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-md px-4 py-12 sm:py-16">
      {state === 'form' ? <ResetForm token={token} /> : <Outcome state={state} />}
    </main>
  );
}

function ResetForm({ token }: { token: string }) {
  const { t } = useTranslation('account');
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post';
  const [form, fields] = useForm({
    id: 'reset-password',
    lastResult: actionData?.result,
    constraint: getZodConstraint(resetPasswordSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
  });
  return (
    <section className="rounded-card border border-surface-line bg-surface p-6 shadow-card sm:p-8">
      <h1 className="text-2xl font-bold text-ink">{t('reset.title')}</h1>
      <p className="mt-2 text-ink-muted">{t('reset.intro')}</p>
      <div className="mt-4 space-y-2">
        <FormAlert id={form.errorId} errors={form.errors} />
        {actionData?.invalidToken ? (
          <Link to="/forgot-password" className="inline-block text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
            {t('reset.requestNew')}
          </Link>
        ) : null}
      </div>
      <Form method="post" {...getFormProps(form)} className="mt-5 space-y-4">
        <input type="hidden" name="token" value={token} />
        <PasswordField label={t('fields.newPassword')} meta={fields.password} autoComplete="new-password" hint={t('fields.passwordHint')} />
        <PasswordField label={t('fields.confirmPassword')} meta={fields.confirmPassword} autoComplete="new-password" />
        <SubmitButton pending={pending} pendingLabel={t('reset.pending')} className="w-full">
          {t('reset.submit')}
        </SubmitButton>
      </Form>
    </section>
  );
}

/** Invalid link or done: a message, a link to /auth, and the 3-second redirect. */
function Outcome({ state }: { state: 'invalid' | 'done' }) {
  const { t } = useTranslation(['account', 'auth']);
  const navigate = useNavigate();
  // With JavaScript the page navigates itself (the meta refresh does it without).
  useEffect(() => {
    const timer = window.setTimeout(() => navigate('/auth'), REDIRECT_SECONDS * 1000);
    return () => window.clearTimeout(timer);
  }, [navigate]);
  const done = state === 'done';
  const Icon = done ? CircleCheck : LinkIcon;
  return (
    <section data-reset-state={state} className="rounded-card border border-surface-line bg-surface p-6 text-center shadow-card sm:p-8">
      <span
        aria-hidden="true"
        className={`mx-auto flex size-14 items-center justify-center rounded-full ${done ? 'bg-success-50 text-success-600' : 'bg-danger-50 text-danger-600'}`}
      >
        <Icon className="size-8" />
      </span>
      <h1 className="mt-4 text-2xl font-bold text-ink">{t(done ? 'account:reset.doneTitle' : 'account:reset.invalidTitle')}</h1>
      <p className="mt-2 text-ink-muted">{t(done ? 'auth:messages.resetSuccess' : 'account:reset.invalidText')}</p>
      <p className="mt-2 text-sm text-ink-muted">{t('account:reset.redirectNote')}</p>
      <ButtonLink to="/auth" className="mt-6">
        <LogIn aria-hidden="true" className="size-4" />
        {t('account:reset.toLogin')}
      </ButtonLink>
      {done ? null : (
        <p className="mt-4 text-sm">
          <Link to="/forgot-password" className="font-medium text-brand-700 underline-offset-2 hover:underline">
            {t('account:reset.requestNew')}
          </Link>
        </p>
      )}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [];
  const tags: MetaDescriptor[] = [{ title: data.meta.title }, { name: 'robots', content: 'noindex' }];
  // The 3-second redirect without JavaScript (CSP does not govern meta refresh).
  if (data.state !== 'form') tags.push({ httpEquiv: 'refresh', content: `${REDIRECT_SECONDS};url=/auth` });
  return tags;
};

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
