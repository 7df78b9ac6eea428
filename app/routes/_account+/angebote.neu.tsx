import { getFormProps, getSelectProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { TextArea } from '~/components/quotes/business-details-card';
import { ErrorList, FormAlert, SubmitButton, TextField, inputClassName } from '~/components/ui/field';
import { getServerT } from '~/i18n.server';
import { createQuoteSchema } from '~/domain/quotes';
import { createQuote, getBusinessDetails } from '~/models/quotes.server';
import { listProjectChoices, PROJECT_CHOICES_LIMIT } from '~/models/projects.server';
import { requireUserContext } from '~/services/auth.server';
import { readFormData } from '~/web/form-data.server';
import { parseSubmission } from '~/web/form-submission.server';
import { pageResult } from '~/web/result-response.server';

export const handle = { i18n: ['quotes', 'quote-project-choices'] };

/** `/angebote/neu?project=<id>`: a quote for a customer from a saved project (issue 26 §2). */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireUserContext(args);
  const t = await getServerT('quotes');
  const params = new URL(args.request.url).searchParams;
  // The newest projects (and a search for the others), not the whole account (security review).
  const { choices: projects, capped, q, selected } = await listProjectChoices(ctx, { q: params.get('q') ?? '', project: params.get('project') ?? '' });
  const hasBusinessDetails = (await getBusinessDetails(ctx)) !== null;
  return { projects, capped, choiceLimit: PROJECT_CHOICES_LIMIT, q, project: params.get('project') ?? '', selected, hasBusinessDetails, meta: { title: t('new.metaTitle') } };
}

export async function action(args: ActionFunctionArgs) {
  const ctx = await requireUserContext(args);
  const t = await getServerT('quotes');
  const formData = await readFormData(args.request);
  const submission = parseSubmission(formData, createQuoteSchema);
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  // A project that is gone (or someone else's) is a message on this form, not an error page.
  return pageResult(submission, await createQuote(ctx, submission.value), (quote) => ({
    redirectTo: `/angebote/${quote.id}`,
    toast: { type: 'success', title: t('new.created', { number: quote.number }), description: t('new.createdDescription') },
  }), { notFoundErrors: { projectId: ['quotes:errors.project'] } });
}

export default function NewQuotePage() {
  const { t } = useTranslation('quotes');
  const { t: tc } = useTranslation('quote-project-choices');
  const { projects, capped, choiceLimit, q, project, selected, hasBusinessDetails } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'new-quote',
    lastResult: actionData?.result,
    defaultValue: { projectId: selected },
    constraint: getZodConstraint(createQuoteSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createQuoteSchema }),
  });
  const { key: selectKey, ...selectProps } = getSelectProps(fields.projectId);
  return (
    <main className="mx-auto max-w-2xl px-4 py-6 sm:py-8">
      <Link to="/angebote" className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('new.back')}
      </Link>
      <h1 className="mt-3 text-2xl font-bold sm:text-3xl">{t('new.title')}</h1>
      <p className="mt-2 text-sm text-ink-muted">{t('new.intro')}</p>
      {!hasBusinessDetails ? (
        <p className="mt-4 rounded-md border border-surface-line bg-surface-subtle p-3 text-sm" data-testid="business-details-missing">
          {t('new.noBusinessDetails')}{' '}
          <Link to="/profile#geschaeftsdaten" className="font-medium text-brand-700 underline">
            {t('new.toBusinessDetails')}
          </Link>
        </p>
      ) : null}
      {projects.length > 0 || q ? (
        // A GET form of its own (forms cannot nest): works without JavaScript.
        <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-2" data-testid="project-choice-search">
          {project ? <input type="hidden" name="project" value={project} /> : null}
          <div className="min-w-0 flex-1">
            <label htmlFor="project-choice-q" className="mb-1.5 block text-sm font-medium">
              {tc('search')}
            </label>
            <input id="project-choice-q" name="q" type="search" defaultValue={q} maxLength={200} placeholder={tc('searchPlaceholder')} className={inputClassName} />
          </div>
          <button type="submit" className="rounded-md border border-surface-line px-4 py-2 text-sm font-medium hover:bg-surface-subtle">
            {tc('searchButton')}
          </button>
        </Form>
      ) : null}
      {capped ? (
        <p className="mt-2 text-sm text-ink-muted" data-testid="project-choice-capped">
          {tc(q ? 'cappedSearch' : 'capped', { count: choiceLimit })}
        </p>
      ) : null}
      {projects.length === 0 && q ? (
        <p className="mt-4 text-sm" data-testid="project-choice-none">
          {tc('noMatch', { q })}
        </p>
      ) : projects.length === 0 ? (
        <div className="mt-6 rounded-card border border-dashed border-surface-line p-6 text-center">
          <p className="font-medium">{t('new.noProjects')}</p>
          <Link to="/calculator" className="mt-2 inline-block text-brand-700 underline">
            {t('new.toCalculator')}
          </Link>
        </div>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4 rounded-card border border-surface-line bg-surface p-5 shadow-card">
          <FormAlert id={form.errorId} errors={form.errors} />
          <div>
            <label htmlFor={fields.projectId.id} className="mb-1.5 block text-sm font-medium">
              {t('new.project')}
            </label>
            <select key={selectKey} {...selectProps} className={inputClassName}>
              {projects.map((project) => (
                <option key={project.id} value={project.id}>
                  {project.name}
                </option>
              ))}
            </select>
            <ErrorList id={fields.projectId.errorId} errors={fields.projectId.errors} />
          </div>
          <TextField label={t('fields.customerName')} meta={fields.customerName} autoComplete="off" />
          <TextArea label={t('fields.customerAddress')} meta={fields.customerAddress as never} rows={3} />
          <TextField label={t('fields.customerEmail')} meta={fields.customerEmail as never} type="email" autoComplete="off" />
          <div className="flex justify-end">
            <SubmitButton pending={navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post'} pendingLabel={t('new.createPending')}>
              {t('new.create')}
            </SubmitButton>
          </div>
        </Form>
      )}
    </main>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.meta.title }, { name: 'robots', content: 'noindex' }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
