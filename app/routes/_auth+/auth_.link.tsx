import { readFormData } from '~/web/form-data.server';
import { parseSubmission } from '~/web/form-submission.server';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { ArrowLeft, LinkIcon, LogIn, MailCheck, RotateCcw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ButtonLink } from '~/components/ui/button-link';
import { FormAlert, SubmitButton, TextField } from '~/components/ui/field';
import { getServerT } from '~/i18n.server';
import { forgotPasswordSchema } from '~/domain/auth-schemas';
import { checkSignInLink, requestSignInLink, signInWithLink } from '~/models/sign-in-links.server';
import { getRequestContext, signInHeaders } from '~/services/auth.server';
import { translateMessage } from '~/lib/messages';
import { pageMessageResult, pageResult, pageStateResult } from '~/web/result-response.server';

export const handle = { i18n: ['account', 'auth', 'signin'] };

/** The request form, the "sent" state (`?sent=1`), or a link from the mail (`?token=`): its button, or why it no longer works. */
type State = 'request' | 'sent' | 'confirm' | 'invalid';

/** The schema of the request form: one address (the same shape as forgot password). */
const requestSchema = forgotPasswordSchema;

/**
 * Sign-in by mail link (models/sign-in-links.server.ts). Following the link
 * shows a button that posts the token: a mail scanner that opens links does
 * not use it up, and a session is never set by a GET. Everything works
 * without JavaScript.
 */
export async function loader(args: LoaderFunctionArgs) {
  const params = new URL(args.request.url).searchParams;
  const t = await getServerT('signin');
  const meta = { title: t('page.metaTitle') };
  const token = params.get('token');
  if (token !== null) {
    return pageStateResult(
      await checkSignInLink(await getRequestContext(args), { token }),
      ({ email }) => ({ state: 'confirm' as State, token, email, meta }),
      () => data({ state: 'invalid' as State, token: '', email: '', meta }, { status: 400 }),
    );
  }
  return { state: (params.get('sent') === '1' ? 'sent' : 'request') as State, token: '', email: '', meta };
}

export async function action(args: ActionFunctionArgs) {
  const formData = await readFormData(args.request);
  const ctx = await getRequestContext(args);
  const t = await getServerT(['account', 'signin']);

  if (formData.get('intent') === 'signIn') {
    const result = await signInWithLink(ctx, { token: formData.get('token') });
    return pageMessageResult(result, async ({ user, firstSignIn }) => ({
      redirectTo: '/calculator',
      headers: await signInHeaders(args.request, user.id),
      toast: {
        type: 'success',
        title: t('signin:toast.signedInTitle'),
        description: t(firstSignIn ? 'account:auth.toast.welcomeFirst' : 'account:auth.toast.welcome', { name: user.firstName?.trim() || user.email }),
      },
    }), { extra: { intent: 'signIn' as const } });
  }

  const submission = parseSubmission(formData, requestSchema);
  if (submission.status !== 'success') return data({ intent: 'send' as const, result: submission.reply() }, { status: 400 });
  return pageResult(submission, await requestSignInLink(ctx, submission.value), () => ({
    redirectTo: '/auth/link?sent=1',
    toast: { type: 'success', title: t('signin:toast.sentTitle'), description: t('signin:messages.linkSent') },
  }), { extra: { intent: 'send' as const } });
}

export default function SignInLinkPage() {
  const { state, token, email } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-md px-4 py-12 sm:py-16">
      {state === 'confirm' ? <ConfirmState token={token} email={email} /> : state === 'sent' ? <SentState /> : state === 'invalid' ? <InvalidState /> : <RequestForm />}
    </main>
  );
}

function usePending(intent: string) {
  const navigation = useNavigation();
  return navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post' && navigation.formData?.get('intent') === intent;
}

function RequestForm() {
  const { t } = useTranslation(['signin', 'account']);
  const actionData = useActionData<typeof action>();
  const pending = usePending('send');
  const [form, fields] = useForm({
    id: 'sign-in-link',
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
    constraint: getZodConstraint(requestSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: requestSchema }),
  });
  return (
    <section className="rounded-card border border-surface-line bg-surface p-6 shadow-card sm:p-8">
      <h1 className="text-2xl font-bold text-ink">{t('signin:page.requestTitle')}</h1>
      <p className="mt-2 text-ink-muted">{t('signin:page.requestIntro')}</p>
      <div className="mt-4">
        <FormAlert id={form.errorId} errors={form.errors} />
      </div>
      <Form method="post" {...getFormProps(form)} className="mt-5 space-y-4">
        <input type="hidden" name="intent" value="send" />
        <TextField label={t('account:fields.email')} meta={fields.email} type="email" autoComplete="email" placeholder={t('account:fields.emailPlaceholder')} />
        <SubmitButton pending={pending} pendingLabel={t('signin:page.pending')} className="w-full">
          {t('signin:page.submit')}
        </SubmitButton>
      </Form>
      <BackToLogin />
    </section>
  );
}

function SentState() {
  const { t } = useTranslation('signin');
  return (
    <section data-sign-in-link-state="sent" className="rounded-card border border-surface-line bg-surface p-6 text-center shadow-card sm:p-8">
      <span aria-hidden="true" className="mx-auto flex size-14 items-center justify-center rounded-full bg-success-50 text-success-600">
        <MailCheck className="size-8" />
      </span>
      <h1 className="mt-4 text-2xl font-bold text-ink">{t('page.sentTitle')}</h1>
      <p className="mt-2 text-ink-muted">{t('messages.linkSent')}</p>
      <p className="mt-2 text-sm text-ink-muted">{t('page.sentHint')}</p>
      <ButtonLink to="/auth/link" variant="secondary" className="mt-6">
        <RotateCcw aria-hidden="true" className="size-4" />
        {t('page.again')}
      </ButtonLink>
      <BackToLogin />
    </section>
  );
}

function ConfirmState({ token, email }: { token: string; email: string }) {
  const { t } = useTranslation('signin');
  const actionData = useActionData<typeof action>();
  const pending = usePending('signIn');
  const error = actionData && 'formError' in actionData ? actionData.formError : null;
  if (error) return <InvalidState message={error} />;
  return (
    <section data-sign-in-link-state="confirm" className="rounded-card border border-surface-line bg-surface p-6 text-center shadow-card sm:p-8">
      <span aria-hidden="true" className="mx-auto flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <LogIn className="size-8" />
      </span>
      <h1 className="mt-4 text-2xl font-bold text-ink">{t('page.confirmTitle')}</h1>
      <p className="mt-2 break-words text-ink-muted">{t('page.confirmIntro', { email })}</p>
      <Form method="post" className="mt-6">
        <input type="hidden" name="intent" value="signIn" />
        <input type="hidden" name="token" value={token} />
        <SubmitButton pending={pending} pendingLabel={t('page.confirmPending')} className="w-full">
          {t('page.confirmSubmit')}
        </SubmitButton>
      </Form>
    </section>
  );
}

function InvalidState({ message }: { message?: string }) {
  const { t } = useTranslation('signin');
  return (
    <section role="alert" data-sign-in-link-state="invalid" className="rounded-card border border-surface-line bg-surface p-6 text-center shadow-card sm:p-8">
      <span aria-hidden="true" className="mx-auto flex size-14 items-center justify-center rounded-full bg-danger-50 text-danger-600">
        <LinkIcon className="size-8" />
      </span>
      <h1 className="mt-4 text-2xl font-bold text-ink">{t('page.invalidTitle')}</h1>
      <p className="mt-2 text-ink-muted">{message ? translateMessage(t, message) : t('messages.linkInvalid')}</p>
      <ButtonLink to="/auth/link" variant="secondary" className="mt-6">
        <RotateCcw aria-hidden="true" className="size-4" />
        {t('page.again')}
      </ButtonLink>
      <BackToLogin />
    </section>
  );
}

function BackToLogin() {
  const { t } = useTranslation('signin');
  return (
    <p className="mt-6 text-center">
      <Link to="/auth" className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('page.back')}
      </Link>
    </p>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.meta.title }, { name: 'robots', content: 'noindex' }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
