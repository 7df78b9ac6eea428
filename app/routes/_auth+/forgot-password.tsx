import { readFormData } from '~/web/form-data.server';
import { parseSubmission } from '~/web/form-submission.server';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { ArrowLeft, MailCheck, RotateCcw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ButtonLink } from '~/components/ui/button-link';
import { FormAlert, SubmitButton, TextField } from '~/components/ui/field';
import { getServerT } from '~/i18n.server';
import { forgotPasswordSchema } from '~/domain/auth-schemas';
import { forgotPassword } from '~/models/accounts.server';
import { getRequestContext } from '~/services/request-context.server';
import { pageResult } from '~/web/result-response.server';

export const handle = { i18n: ['account', 'auth'] };

/**
 * Form, then the "sent" state (`?sent=1`, reached by a redirect so a reload
 * does not post again). The answer is the same whether or not the address
 * has an account. 'Erneut senden' is a link back to the empty form.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getServerT('account');
  return { sent: new URL(request.url).searchParams.get('sent') === '1', meta: { title: t('forgot.metaTitle') } };
}

export async function action(args: ActionFunctionArgs) {
  const formData = await readFormData(args.request);
  const submission = parseSubmission(formData, forgotPasswordSchema);
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  let result;
  try {
    result = await forgotPassword(await getRequestContext(args), submission.value);
  } catch (error) {
    console.error('[forgot-password]', error);
    return data({ result: submission.reply({ formErrors: ['account:forgot.failed'] }) }, { status: 500 });
  }
  const t = await getServerT(['account', 'auth']);
  return pageResult(submission, result, () => ({
    redirectTo: '/forgot-password?sent=1',
    toast: { type: 'success', title: t('account:forgot.sentTitle'), description: t('auth:messages.forgotPasswordSent') },
  }));
}

export default function ForgotPasswordPage() {
  const { sent } = useLoaderData<typeof loader>();
  return <main className="mx-auto max-w-md px-4 py-12 sm:py-16">{sent ? <SentState /> : <ForgotPasswordForm />}</main>;
}

function ForgotPasswordForm() {
  const { t } = useTranslation('account');
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post';
  const [form, fields] = useForm({
    id: 'forgot-password',
    lastResult: actionData?.result,
    constraint: getZodConstraint(forgotPasswordSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
  });
  return (
    <section className="rounded-card border border-surface-line bg-surface p-6 shadow-card sm:p-8">
      <h1 className="text-2xl font-bold text-ink">{t('forgot.title')}</h1>
      <p className="mt-2 text-ink-muted">{t('forgot.intro')}</p>
      <div className="mt-4">
        <FormAlert id={form.errorId} errors={form.errors} />
      </div>
      <Form method="post" {...getFormProps(form)} className="mt-5 space-y-4">
        <TextField label={t('fields.email')} meta={fields.email} type="email" autoComplete="email" placeholder={t('fields.emailPlaceholder')} />
        <SubmitButton pending={pending} pendingLabel={t('forgot.pending')} className="w-full">
          {t('forgot.submit')}
        </SubmitButton>
      </Form>
      <BackToLogin />
    </section>
  );
}

function SentState() {
  const { t } = useTranslation(['account', 'auth']);
  return (
    <section data-forgot-state="sent" className="rounded-card border border-surface-line bg-surface p-6 text-center shadow-card sm:p-8">
      <span aria-hidden="true" className="mx-auto flex size-14 items-center justify-center rounded-full bg-success-50 text-success-600">
        <MailCheck className="size-8" />
      </span>
      <h1 className="mt-4 text-2xl font-bold text-ink">{t('account:forgot.sentTitle')}</h1>
      <p className="mt-2 text-ink-muted">{t('auth:messages.forgotPasswordSent')}</p>
      <p className="mt-2 text-sm text-ink-muted">{t('account:forgot.sentHint')}</p>
      <ButtonLink to="/forgot-password" variant="secondary" className="mt-6">
        <RotateCcw aria-hidden="true" className="size-4" />
        {t('account:forgot.resend')}
      </ButtonLink>
      <BackToLogin />
    </section>
  );
}

function BackToLogin() {
  const { t } = useTranslation('account');
  return (
    <p className="mt-6 text-center">
      <Link to="/auth" className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('forgot.back')}
      </Link>
    </p>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.meta.title }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
