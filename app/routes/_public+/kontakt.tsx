import { readFormData } from '~/web/form-data.server';
import { parseSubmission } from '~/web/form-submission.server';
import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { getPublicOperator, isContactAnswered } from '~/models/operator.server';
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from '@remix-run/react';
import { Clock, Mail, MapPin, MessageSquareReply } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { showToast } from '~/components/toaster';
import { ErrorList, FormAlert, SubmitButton, TextField, inputClassName } from '~/components/ui/field';
import { getServerT } from '~/i18n.server';
import { contactSchema, isHoneypotFilled } from '~/domain/auth-schemas';
import { sendContactMessage } from '~/models/contact.server';
import type { loader as rootLoader } from '~/root';
import { getRequestContext } from '~/services/request-context.server';
import { isDatabaseUnavailable } from '~/services/database-outage.server';
import { pageResult } from '~/web/result-response.server';
import { redirectWithToast } from '~/web/toast.server';

export const handle = { i18n: ['account', 'auth', 'admin'] };

export async function loader(args: LoaderFunctionArgs) {
  const t = await getServerT('account');
  const ctx = await getRequestContext(args);
  // Operator details from the admin settings; no answer-time promise while nobody receives the messages.
  // While the database is down the form still shows (its post then says it could not send, with what was typed).
  const [operator, answered] = await Promise.all([getPublicOperator(ctx), isContactAnswered(ctx)]).catch((error: unknown) => {
    if (isDatabaseUnavailable(error)) return [null, false] as const;
    throw error;
  });
  return { meta: { title: t('contact.metaTitle'), description: t('contact.metaDescription') }, operator, answered };
}

/**
 * Without JavaScript the form posts here: the message is validated, stored
 * and mailed (models/contact.server.ts), and a redirect with the toast clears
 * the form. With JavaScript the same fields go to POST /api/contact (spec §7)
 * and a failed connection shows 'Verbindungsfehler'.
 */
export async function action(args: ActionFunctionArgs) {
  const formData = await readFormData(args.request);
  const t = await getServerT(['account', 'auth']);
  const sent = (autoReply: boolean) => ({
    redirectTo: '/kontakt',
    toast: {
      type: 'success' as const,
      title: t('account:contact.toast.sent'),
      description: t(autoReply ? 'auth:messages.contactSent' : 'auth:messages.contactSentNoReply'),
    },
  });
  // Bots fill the hidden field: they get the normal answer and nothing is stored.
  if (isHoneypotFilled(formData)) return redirectWithToast('/kontakt', sent(true).toast);

  const submission = parseSubmission(formData, contactSchema);
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  let result;
  try {
    result = await sendContactMessage(await getRequestContext(args), submission.value);
  } catch (error) {
    // The form keeps what was typed and says so in its own words (also while the database is down).
    console.error('[kontakt]', error);
    return data({ result: submission.reply({ formErrors: ['auth:messages.contactFailed'] }) }, { status: 503, headers: { 'Retry-After': '30' } });
  }
  return pageResult(submission, result, ({ autoReply }) => sent(autoReply));
}

export default function ContactPage() {
  const { t } = useTranslation('account');
  // Bumped after a message went out with JavaScript: the form starts empty again.
  const [generation, setGeneration] = useState(0);
  return (
    <main className="mx-auto max-w-page px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold sm:text-3xl">{t('contact.title')}</h1>
      <p className="mt-2 max-w-2xl text-ink-muted">{t('contact.intro')}</p>
      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:items-start">
        <ContactInfo />
        <ContactForm
          key={generation}
          onSent={() => {
            setGeneration((value) => value + 1);
            // Like the redirect without JavaScript: back to the top, where the toast covers no field of the emptied form.
            window.scrollTo({ top: 0 });
          }}
        />
      </div>
    </main>
  );
}

function ContactInfo() {
  const { t } = useTranslation(['account', 'admin']);
  const { operator, answered } = useLoaderData<typeof loader>();
  const missing = <span data-operator-missing>{t('admin:legal.contactMissing')}</span>;
  const items = [
    {
      icon: Mail,
      label: t('contact.supportLabel'),
      content: operator ? (
        <a href={`mailto:${operator.email}`} className="font-medium text-brand-700 underline-offset-4 hover:underline">
          {operator.email}
        </a>
      ) : (
        missing
      ),
    },
    {
      icon: MapPin,
      label: t('contact.postalLabel'),
      content: operator ? (
        <address className="not-italic">
          {[operator.name, ...operator.addressLines].map((line) => (
            <span key={line} className="block">
              {line}
            </span>
          ))}
        </address>
      ) : (
        missing
      ),
    },
    { icon: Clock, label: t('contact.hoursLabel'), content: t('contact.hours') },
    { icon: MessageSquareReply, label: t('contact.responseLabel'), content: answered ? t('contact.response') : t('admin:legal.noAnswerPromise') },
  ];
  return (
    <section aria-labelledby="contact-info-title" className="rounded-card border border-surface-line bg-surface p-5 shadow-card sm:p-6">
      <h2 id="contact-info-title" className="text-lg font-semibold text-ink">
        {t('contact.infoTitle')}
      </h2>
      <dl className="mt-4 space-y-4">
        {items.map(({ icon: Icon, label, content }) => (
          <div key={label}>
            <dt className="flex items-center gap-2 text-sm font-semibold text-ink">
              <span aria-hidden="true" className="flex size-7 shrink-0 items-center justify-center rounded-md bg-brand-50 text-brand-700">
                <Icon className="size-4" />
              </span>
              {label}
            </dt>
            <dd className="mt-1 pl-9 text-sm text-ink-muted">{content}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

type ApiAnswer = { message?: unknown; errors?: Record<string, string[]> };

function ContactForm({ onSent }: { onSent: () => void }) {
  const { t } = useTranslation(['account', 'auth']);
  const actionData = useActionData<typeof action>();
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const navigation = useNavigation();
  const [sending, setSending] = useState(false);
  const [apiResult, setApiResult] = useState<SubmissionResult<string[]> | undefined>(undefined);
  const pending = sending || (navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post');
  const user = root?.user;
  const [form, fields] = useForm({
    id: 'contact',
    lastResult: apiResult ?? actionData?.result,
    defaultValue: user ? { name: [user.firstName, user.lastName].filter(Boolean).join(' '), email: user.email } : undefined,
    constraint: getZodConstraint(contactSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactSchema }),
    // With JavaScript: the spec's POST /api/contact, so a lost connection can be told apart.
    async onSubmit(event, { formData }) {
      event.preventDefault();
      setSending(true);
      const body = Object.fromEntries(['name', 'email', 'subject', 'message', 'website'].map((name) => [name, String(formData.get(name) ?? '')]));
      let response: Response;
      try {
        response = await fetch('/api/contact', {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify(body),
        });
      } catch {
        setSending(false);
        showToast({ type: 'error', title: t('account:contact.toast.networkTitle'), description: t('account:contact.toast.networkText') });
        return;
      }
      const answer = (await response.json().catch(() => ({}))) as ApiAnswer;
      setSending(false);
      const message = typeof answer.message === 'string' ? answer.message : null;
      if (response.ok) {
        showToast({ type: 'success', title: t('account:contact.toast.sent'), description: message ?? t('auth:messages.contactSent') });
        onSent();
        return;
      }
      if (answer.errors) {
        const { '': formErrors, ...fieldErrors } = answer.errors;
        setApiResult({ status: 'error', initialValue: body, error: { ...fieldErrors, ...(formErrors ? { '': formErrors } : {}) } });
      }
      showToast({ type: 'error', title: t('account:contact.toast.failed'), description: message ?? t('auth:messages.contactFailed') });
    },
  });

  const { key: messageKey, ...messageProps } = getTextareaProps(fields.message);
  const { key: websiteKey, ...websiteProps } = getInputProps(fields.website, { type: 'text' });

  return (
    <section aria-labelledby="contact-form-title" className="rounded-card border border-surface-line bg-surface p-5 shadow-card sm:p-6">
      <h2 id="contact-form-title" className="text-lg font-semibold text-ink">
        {t('account:contact.formTitle')}
      </h2>
      <div className="mt-4">
        <FormAlert id={form.errorId} errors={form.errors} title={t('account:contact.toast.failed')} />
      </div>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={t('account:contact.name')} meta={fields.name} autoComplete="name" />
          <TextField label={t('account:contact.email')} meta={fields.email} type="email" autoComplete="email" />
        </div>
        <TextField label={t('account:contact.subject')} meta={fields.subject} />
        <div>
          <label htmlFor={fields.message.id} className="mb-1.5 block text-sm font-medium text-ink">
            {t('account:contact.message')}
          </label>
          <textarea key={messageKey} {...messageProps} rows={6} className={inputClassName} />
          <ErrorList id={fields.message.errorId} errors={fields.message.errors} />
        </div>
        {/* Honeypot: invisible to people and screen readers, filled in by bots. */}
        <div aria-hidden="true" className="sr-only">
          <label htmlFor={fields.website.id}>{t('account:contact.honeypot')}</label>
          <input key={websiteKey} {...websiteProps} tabIndex={-1} autoComplete="off" />
        </div>
        <div className="flex justify-end">
          <SubmitButton pending={pending} pendingLabel={t('account:contact.pending')}>
            {t('account:contact.submit')}
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.meta.title }, { name: 'description', content: data.meta.description }] : [];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
