import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { Copy, FileDown, FileText, Search, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { StatusBadge } from '~/components/quotes/status-badge';
import { ButtonLink, buttonClassName } from '~/components/ui/button-link';
import { inputClassName } from '~/components/ui/field';
import { Pagination } from '~/components/ui/pagination';
import { getServerT } from '~/i18n.server';
import { formatCents } from '~/domain/quote-totals';
import { formatIsoDate, MAX_QUOTE_SEARCH_LENGTH, QUOTE_DISPLAY_STATUSES } from '~/domain/quotes';
import { copyQuote, deleteQuote, listQuotes } from '~/models/quotes.server';
import { requireUserContext } from '~/services/auth.server';
import { readFormData } from '~/web/form-data.server';
import { toastResult } from '~/web/result-response.server';

export const handle = { i18n: ['quotes'] };

export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireUserContext(args);
  const url = new URL(args.request.url);
  const page = Number(url.searchParams.get('page') ?? '1');
  const list = await listQuotes(ctx, { q: url.searchParams.get('q') ?? '', status: url.searchParams.get('status') ?? '', page });
  const t = await getServerT('quotes');
  return { list, meta: { title: t('list.metaTitle') } };
}

/** Copy (any quote) and delete (drafts only), from the list. */
export async function action(args: ActionFunctionArgs) {
  const ctx = await requireUserContext(args);
  const t = await getServerT('quotes');
  const formData = await readFormData(args.request);
  const intent = formData.get('intent');
  const id = formData.get('id');
  const back = listUrl(formData);
  const failed = { redirectTo: back, title: t('list.error') };
  if (intent === 'copy') {
    return toastResult(await copyQuote(ctx, id), (copy) => ({
      redirectTo: `/angebote/${copy.id}`,
      toast: { type: 'success', title: t('list.copied', { number: copy.number }) },
    }), failed);
  }
  if (intent === 'delete') {
    return toastResult(await deleteQuote(ctx, id), (deleted) => ({ redirectTo: back, toast: { type: 'success', title: t('list.deleted', { number: deleted.number }) } }), failed);
  }
  throw new Response(t('errors.invalidInput'), { status: 400 });
}

/** Back to the same search and page after a list action. */
function listUrl(formData: FormData): string {
  const params = new URLSearchParams();
  for (const name of ['q', 'status', 'page']) {
    const value = formData.get(name);
    if (typeof value === 'string' && value && value.length <= MAX_QUOTE_SEARCH_LENGTH) params.set(name, value);
  }
  const query = params.toString();
  return query ? `/angebote?${query}` : '/angebote';
}

export default function QuotesPage() {
  const { t } = useTranslation('quotes');
  const { list } = useLoaderData<typeof loader>();
  const filtered = list.q !== '' || list.status !== '';
  const href = (page: number) => {
    const params = new URLSearchParams();
    if (list.q) params.set('q', list.q);
    if (list.status) params.set('status', list.status);
    if (page > 1) params.set('page', String(page));
    const query = params.toString();
    return query ? `/angebote?${query}` : '/angebote';
  };
  return (
    <main className="mx-auto max-w-5xl px-4 py-6 sm:py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold sm:text-3xl">{t('list.title')}</h1>
        <ButtonLink to="/angebote/neu" variant="primary">
          <FileText aria-hidden="true" className="size-4" />
          {t('list.new')}
        </ButtonLink>
      </div>
      <p className="mt-2 text-sm text-ink-muted">{t('list.intro')}</p>
      <Form method="get" role="search" className="mt-5 flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor="quotes-q" className="mb-1 block text-sm font-medium">
            {t('list.search')}
          </label>
          <input id="quotes-q" name="q" type="search" defaultValue={list.q} maxLength={MAX_QUOTE_SEARCH_LENGTH} placeholder={t('list.searchPlaceholder')} className={inputClassName} />
        </div>
        <div>
          <label htmlFor="quotes-status" className="mb-1 block text-sm font-medium">
            {t('list.status')}
          </label>
          <select id="quotes-status" name="status" defaultValue={list.status} className={inputClassName}>
            <option value="">{t('list.allStatuses')}</option>
            {QUOTE_DISPLAY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`status.${status}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClassName({ variant: 'secondary' })}>
          <Search aria-hidden="true" className="size-4" />
          {t('list.searchSubmit')}
        </button>
      </Form>
      {list.items.length === 0 ? (
        <div className="mt-8 rounded-card border border-dashed border-surface-line p-6 text-center" data-testid="quotes-empty">
          <p className="font-medium">{filtered ? t('list.emptyFiltered') : t('list.empty')}</p>
          {filtered ? (
            <Link to="/angebote" className="mt-2 inline-block text-brand-700 underline">
              {t('list.showAll')}
            </Link>
          ) : (
            <p className="mt-2 text-sm text-ink-muted">
              {t('list.emptyHint')}{' '}
              <Link to="/projects" className="text-brand-700 underline">
                {t('list.toProjects')}
              </Link>
            </p>
          )}
        </div>
      ) : (
        <ul className="mt-6 space-y-3" aria-label={t('list.title')}>
          {list.items.map((quote) => (
            <li key={quote.id} className="rounded-card border border-surface-line bg-surface p-4 shadow-card" data-testid="quote-card">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <Link to={`/angebote/${quote.id}`} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
                    {quote.number}
                  </Link>
                  <p className="break-words text-sm">{quote.customerName}</p>
                  <p className="text-xs text-ink-muted">
                    {formatIsoDate(quote.quoteDate)} · {t('list.validUntil', { date: formatIsoDate(quote.validUntil) })}
                  </p>
                </div>
                <div className="text-right">
                  <StatusBadge status={quote.status} />
                  <p className="mt-1 font-semibold tabular-nums">{formatCents(quote.totalGrossCents)}</p>
                </div>
              </div>
              <div className="mt-3 flex flex-wrap gap-2">
                <ButtonLink to={`/angebote/${quote.id}`} variant="secondary" size="sm">
                  {quote.status === 'draft' ? t('list.edit') : t('list.open')}
                </ButtonLink>
                <a href={`/angebote/${quote.id}.pdf`} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
                  <FileDown aria-hidden="true" className="size-4" />
                  {t('list.pdf')}
                </a>
                <Form method="post">
                  <ListState q={list.q} status={list.status} page={list.page} />
                  <input type="hidden" name="id" value={quote.id} />
                  <button type="submit" name="intent" value="copy" className={buttonClassName({ variant: 'ghost', size: 'sm' })}>
                    <Copy aria-hidden="true" className="size-4" />
                    {t('list.copy')}
                  </button>
                </Form>
                {quote.status === 'draft' ? (
                  <Form
                    method="post"
                    onSubmit={(event) => {
                      if (!window.confirm(t('list.confirmDelete', { number: quote.number }))) event.preventDefault();
                    }}
                  >
                    <ListState q={list.q} status={list.status} page={list.page} />
                    <input type="hidden" name="id" value={quote.id} />
                    <button type="submit" name="intent" value="delete" className={buttonClassName({ variant: 'ghost', size: 'sm', className: 'text-danger-700' })}>
                      <Trash2 aria-hidden="true" className="size-4" />
                      {t('list.delete')}
                    </button>
                  </Form>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={list.page} hasNext={list.hasNext} href={href} />
    </main>
  );
}

function ListState({ q, status, page }: { q: string; status: string; page: number }) {
  return (
    <>
      {q ? <input type="hidden" name="q" value={q} /> : null}
      {status ? <input type="hidden" name="status" value={status} /> : null}
      {page > 1 ? <input type="hidden" name="page" value={page} /> : null}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.meta.title }, { name: 'robots', content: 'noindex' }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
