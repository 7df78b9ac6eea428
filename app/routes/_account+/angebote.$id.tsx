import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { ArrowLeft, Copy, FileDown, Plus, Printer, Send, Trash2, X } from 'lucide-react';
import { cloneElement, Fragment, isValidElement, useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { QuoteDocument } from '~/components/quotes/quote-document';
import { StatusBadge } from '~/components/quotes/status-badge';
import { buttonClassName } from '~/components/ui/button-link';
import { ErrorList, inputClassName } from '~/components/ui/field';
import { getServerT } from '~/i18n.server';
import { isPremium } from '~/domain/permissions';
import { formatCents } from '~/domain/quote-totals';
import { applyQuoteLineAction, berlinDate, MAX_QUOTE_LINES, quoteInputSchema, sendQuoteSchema, typedQuoteTotals } from '~/domain/quotes';
import { copyQuote, defaultSendText, deleteQuote, getQuote, quoteView, sendQuote, setQuoteStatus, updateQuote } from '~/models/quotes.server';
import type { Quote, QuoteLineKind } from '~/entities';
import { quoteView as livePreviewView, type QuoteView } from '~/models/quote-view';
import { requireUserContext } from '~/services/auth.server';
import { readFormData } from '~/web/form-data.server';
import { pageValue, toastResult } from '~/web/result-response.server';

export const handle = { i18n: ['quotes'] };

type LineValues = { kind: QuoteLineKind; description: string; quantity: string; unitPrice: string; vatRate: string };
type EditValues = {
  customerName: string;
  customerAddress: string;
  customerEmail: string;
  quoteDate: string;
  validUntil: string;
  discountPercent: string;
  closingText: string;
  lines: LineValues[];
};

const germanDecimal = (value: number, digits = 2) =>
  new Intl.NumberFormat('de-DE', { minimumFractionDigits: 0, maximumFractionDigits: digits, useGrouping: false }).format(value);
const centsInput = (cents: number) => new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(cents / 100);

export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireUserContext(args);
  const quote = pageValue(await getQuote(ctx, args.params.id));
  const t = await getServerT('quotes');
  const today = berlinDate(ctx.now);
  const view = quoteView(quote, t, today);
  const edit: EditValues | null =
    quote.status === 'draft'
      ? {
          customerName: quote.customerName,
          customerAddress: quote.customerAddress ?? '',
          customerEmail: quote.customerEmail ?? '',
          quoteDate: quote.quoteDate,
          validUntil: quote.validUntil,
          discountPercent: germanDecimal(quote.discountBasisPoints / 100),
          closingText: quote.closingText,
          lines: quote.lines.map((line) => ({
            kind: line.kind,
            description: line.description,
            quantity: String(line.quantity),
            unitPrice: centsInput(line.unitPriceCents),
            vatRate: germanDecimal(line.vatRate),
          })),
        }
      : null;
  const send = { to: quote.customerEmail ?? '', ...(await defaultSendText(ctx, quote)) };
  return {
    view,
    edit,
    send,
    smallBusiness: quote.seller.smallBusiness,
    // With scripts the preview follows the edit form (what the view needs beyond the form's fields).
    previewBase: quote.status === 'draft' ? { id: quote.id, number: quote.number, status: quote.status, seller: quote.seller } : null,
    hasBusinessDetails: quote.seller.businessName !== '',
    print: new URL(args.request.url).searchParams.has('druck'),
    branding: isPremium(ctx.user, ctx.now) ? null : t('doc.branding'),
    meta: { title: t('detail.metaTitle', { number: quote.number }) },
  };
}

/** The edit form's fields as the schema's input (lines[<i>].<field>, in index order). */
function readQuoteForm(formData: FormData) {
  const lines = new Map<number, Record<string, string>>();
  for (const [name, value] of formData) {
    const match = /^lines\[(\d{1,3})\]\.(kind|description|quantity|unitPrice|vatRate)$/.exec(name);
    if (!match || typeof value !== 'string') continue;
    const index = Number(match[1]);
    if (!lines.has(index) && lines.size >= MAX_QUOTE_LINES + 1) continue;
    lines.set(index, { ...lines.get(index), [match[2]]: value });
  }
  const field = (name: string) => {
    const value = formData.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  return {
    customerName: field('customerName'),
    customerAddress: field('customerAddress'),
    customerEmail: field('customerEmail'),
    quoteDate: field('quoteDate'),
    validUntil: field('validUntil'),
    discountPercent: field('discountPercent'),
    closingText: field('closingText'),
    lines: [...lines.entries()].sort(([a], [b]) => a - b).map(([, line]) => line),
  };
}


export async function action(args: ActionFunctionArgs) {
  const ctx = await requireUserContext(args);
  const t = await getServerT('quotes');
  const id = args.params.id;
  const here = `/angebote/${id}`;
  const formData = await readFormData(args.request);
  const intent = String(formData.get('intent') ?? '');

  const failed = { redirectTo: here, title: t('detail.error') };

  if (intent === 'save' || intent.startsWith('addLine:') || intent.startsWith('removeLine:')) {
    const raw = readQuoteForm(formData);
    const parsed = quoteInputSchema.safeParse(raw);
    if (!parsed.success) {
      // A foreign id is 404 even with a bad form: the answer never tells whether the quote exists.
      pageValue(await getQuote(ctx, id));
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (errors[issue.path.join('.') || ''] ??= []).push(issue.message);
      return data({ intent: 'save' as const, errors, values: raw }, { status: 400 });
    }
    const input = applyQuoteLineAction(parsed.data, intent, (key) => t(key));
    return toastResult(await updateQuote(ctx, id, input), (quote) =>
      intent === 'save' ? { redirectTo: here, toast: { type: 'success', title: t('detail.saved', { number: quote.number }) } } : { redirectTo: `${here}#positionen` },
    failed);
  }
  if (intent === 'setStatus') {
    return toastResult(await setQuoteStatus(ctx, id, formData.get('status')), (quote) => ({
      redirectTo: here,
      toast: { type: 'success', title: t('detail.statusChanged', { status: t(`status.${quote.status}`) }) },
    }), failed);
  }
  if (intent === 'copy') {
    return toastResult(await copyQuote(ctx, id), (copy) => ({
      redirectTo: `/angebote/${copy.id}`,
      toast: { type: 'success', title: t('list.copied', { number: copy.number }) },
    }), failed);
  }
  if (intent === 'delete') {
    return toastResult(await deleteQuote(ctx, id), (deleted) => ({ redirectTo: '/angebote', toast: { type: 'success', title: t('list.deleted', { number: deleted.number }) } }), failed);
  }
  if (intent === 'send') {
    const raw = { to: formData.get('to'), subject: formData.get('subject'), message: formData.get('message') };
    const parsed = sendQuoteSchema.safeParse(raw);
    if (!parsed.success) {
      pageValue(await getQuote(ctx, id));
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (errors[issue.path.join('.') || ''] ??= []).push(issue.message);
      return data({ intent: 'send' as const, errors, values: raw as Record<string, unknown> }, { status: 400 });
    }
    // Over the send cap the form stays as typed, with the wait above it.
    const inPage = {
      kinds: ['rateLimited' as const],
      answer: (message: string, status: number) => data({ intent: 'send' as const, errors: { '': [message] }, values: raw as Record<string, unknown> }, { status }),
    };
    return toastResult(await sendQuote(ctx, id, parsed.data), (quote) => ({
      redirectTo: here,
      toast: { type: 'success', title: t('detail.sent', { number: quote.number }), description: t('detail.sentDescription', { to: parsed.data.to }) },
    }), { ...failed, inPage });
  }
  throw new Response(t('errors.invalidInput'), { status: 400 });
}

export default function QuotePage() {
  const { t } = useTranslation('quotes');
  const { view: saved, edit, print, branding } = useLoaderData<typeof loader>();
  // With scripts: the preview of what the edit form holds (null: the saved quote, as without scripts).
  const [preview, setPreview] = useState<QuoteView | null>(null);
  useEffect(() => setPreview(null), [saved]);
  const view = preview ?? saved;
  if (print) {
    return (
      <main className="bg-white px-2 py-4 print:p-0">
        <div className="no-print mx-auto mb-4 flex max-w-[210mm] flex-wrap gap-2">
          <Link to={`/angebote/${view.id}`} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            {t('detail.backToQuote')}
          </Link>
          <PrintButton />
          <p className="w-full text-xs text-ink-muted" data-print-hint>
            {t('detail.printHint')}
            {/* Strg+P only where there is a keyboard (wide screen, mouse), never on phones. */}
            <span className="hidden lg:pointer-fine:inline"> {t('detail.printHintKeys')}</span>
          </p>
        </div>
        <QuoteDocument view={view} branding={branding} headingLevel={1} />
      </main>
    );
  }
  return (
    <main className="mx-auto max-w-5xl px-4 py-6 sm:py-8">
      <div className="no-print">
        <Link to="/angebote" className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
          <ArrowLeft aria-hidden="true" className="size-4" />
          {t('detail.back')}
        </Link>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold sm:text-3xl">{view.title}</h1>
          <StatusBadge status={view.status} />
        </div>
        <Actions />
        {edit ? <EditForm key={JSON.stringify(edit)} onPreview={setPreview} /> : <p className="mt-4 text-sm text-ink-muted">{t('detail.readOnly')}</p>}
        <StatusForm />
        <SendForm />
        <h2 className="mt-8 text-lg font-semibold">{t('detail.preview')}</h2>
      </div>
      <div className="mt-3 overflow-hidden rounded-card border border-surface-line shadow-card print:border-0 print:shadow-none" data-quote-preview={preview ? 'live' : 'saved'}>
        <QuoteDocument view={view} branding={branding} />
      </div>
    </main>
  );
}

function PrintButton() {
  const { t } = useTranslation('quotes');
  return (
    <button type="button" onClick={() => window.print()} className={buttonClassName({ variant: 'primary', size: 'sm' })}>
      <Printer aria-hidden="true" className="size-4" />
      {t('detail.print')}
    </button>
  );
}

function Actions() {
  const { t } = useTranslation('quotes');
  const { view } = useLoaderData<typeof loader>();
  return (
    <div className="mt-4 flex flex-wrap gap-2">
      <Link to={`/angebote/${view.id}?druck`} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
        <Printer aria-hidden="true" className="size-4" />
        {t('detail.printView')}
      </Link>
      <a href={`/angebote/${view.id}.pdf`} className={buttonClassName({ variant: 'secondary', size: 'sm' })} data-testid="quote-pdf-link">
        <FileDown aria-hidden="true" className="size-4" />
        {t('detail.pdf')}
      </a>
      <Form method="post">
        <button type="submit" name="intent" value="copy" className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
          <Copy aria-hidden="true" className="size-4" />
          {t('detail.copy')}
        </button>
      </Form>
      {view.isDraft ? (
        <Form
          method="post"
          onSubmit={(event) => {
            if (!window.confirm(t('list.confirmDelete', { number: view.number }))) event.preventDefault();
          }}
        >
          <button type="submit" name="intent" value="delete" className={buttonClassName({ variant: 'ghost', size: 'sm', className: 'text-danger-700' })}>
            <Trash2 aria-hidden="true" className="size-4" />
            {t('detail.delete')}
          </button>
        </Form>
      ) : null}
    </div>
  );
}

function useFormErrors(intent: 'save' | 'send') {
  const actionData = useActionData<typeof action>();
  if (!actionData || actionData.intent !== intent) return { errors: {} as Record<string, string[]>, values: null };
  return { errors: actionData.errors, values: actionData.values as Record<string, unknown> };
}

/**
 * The preview of the form's values (with scripts): the same view the page, the print view and the
 * PDF are made from (models/quote-view.ts), from the values as a save would store them
 * (quoteInputSchema). While a field is not valid the preview keeps the last valid state; the
 * seller's details are the quote's (a save takes the current Geschäftsdaten).
 */
function previewOf(form: FormData, base: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['previewBase']>, t: (key: string, options?: Record<string, unknown>) => string): QuoteView | null {
  const parsed = quoteInputSchema.safeParse(readQuoteForm(form));
  if (!parsed.success) return null;
  const input = parsed.data;
  const quote = {
    ...base,
    customerName: input.customerName,
    customerAddress: input.customerAddress ?? null,
    quoteDate: input.quoteDate,
    validUntil: input.validUntil,
    lines: input.lines.map((line) => ({ kind: line.kind, description: line.description, quantity: line.quantity, unitPriceCents: line.unitPrice, vatRate: base.seller.smallBusiness ? 0 : line.vatRate })),
    discountBasisPoints: Math.round(input.discountPercent * 100),
    closingText: input.closingText,
  } as unknown as Quote;
  return livePreviewView(quote, t, berlinDate(new Date()));
}

function EditForm({ onPreview }: { onPreview: (view: QuoteView) => void }) {
  const { t } = useTranslation('quotes');
  const loaded = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const { errors, values: submitted } = useFormErrors('save');
  const values = (submitted as unknown as EditValues | null) ?? loaded.edit!;
  const lines = values.lines ?? [];
  // Without scripts the server renders the figures of the values it was given (saved, or refused with their errors);
  // with scripts they follow every keystroke. Same parsing and rule as on save (typedQuoteTotals).
  const [live, setLive] = useState(() => typedQuoteTotals(lines, values.discountPercent, loaded.smallBusiness));
  const totals = live.totals;
  const pending = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post';
  const err = (name: string) => errors[name];
  const fieldClass = inputClassName;

  function onInput(event: FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget);
    const read = (name: string) => form.get(name) ?? undefined;
    const typed = lines.map((_, i) => ({ quantity: read(`lines[${i}].quantity`), unitPrice: read(`lines[${i}].unitPrice`), vatRate: read(`lines[${i}].vatRate`) }));
    setLive(typedQuoteTotals(typed, read('discountPercent'), loaded.smallBusiness));
    const preview = loaded.previewBase ? previewOf(form, loaded.previewBase, t) : null;
    if (preview) onPreview(preview);
  }

  const text = (name: keyof EditValues) => String((values as Record<string, unknown>)[name] ?? '');
  return (
    <Form method="post" id="quote-edit" onInput={onInput} className="mt-6 space-y-6" noValidate>
      {/* Enter in a field saves (the first submit button of the form). */}
      <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" className="sr-only">
        {t('detail.save')}
      </button>
      {errors[''] ? <ErrorList errors={errors['']} /> : null}
      {Object.keys(errors).length > 0 ? (
        <p role="alert" className="rounded-md border border-danger-600/40 bg-danger-50 px-3 py-2 text-sm text-danger-700">
          {t('errors.invalidInput')}
        </p>
      ) : null}
      {!loaded.hasBusinessDetails ? (
        <p className="rounded-md border border-surface-line bg-surface-subtle p-3 text-sm">
          {t('new.noBusinessDetails')}{' '}
          <Link to="/profile#geschaeftsdaten" className="font-medium text-brand-700 underline">
            {t('new.toBusinessDetails')}
          </Link>
        </p>
      ) : null}
      <fieldset className="grid gap-4 rounded-card border border-surface-line bg-surface p-4 shadow-card sm:grid-cols-2">
        <legend className="px-1 text-base font-semibold">{t('detail.customer')}</legend>
        <Field label={t('fields.customerName')} name="customerName" errors={err('customerName')}>
          <input id="customerName" name="customerName" defaultValue={text('customerName')} className={fieldClass} required maxLength={200} />
        </Field>
        <Field label={t('fields.customerEmail')} name="customerEmail" errors={err('customerEmail')}>
          <input id="customerEmail" name="customerEmail" type="email" defaultValue={text('customerEmail')} className={fieldClass} />
        </Field>
        <Field label={t('fields.customerAddress')} name="customerAddress" errors={err('customerAddress')} className="sm:col-span-2">
          <textarea id="customerAddress" name="customerAddress" rows={3} defaultValue={text('customerAddress')} className={fieldClass} />
        </Field>
        <Field label={t('doc.date')} name="quoteDate" errors={err('quoteDate')}>
          <input id="quoteDate" name="quoteDate" type="date" defaultValue={text('quoteDate')} className={fieldClass} required />
        </Field>
        <Field label={t('doc.validUntil')} name="validUntil" errors={err('validUntil')}>
          <input id="validUntil" name="validUntil" type="date" defaultValue={text('validUntil')} className={fieldClass} required />
        </Field>
      </fieldset>

      <fieldset id="positionen" className="rounded-card border border-surface-line bg-surface p-4 shadow-card">
        <legend className="px-1 text-base font-semibold">{t('detail.lines')}</legend>
        <ErrorList errors={err('lines')} />
        <ol className="space-y-4">
          {lines.map((line, i) => (
            <li key={i} className="grid gap-2 border-b border-surface-line pb-4 sm:grid-cols-[1fr_6rem_8rem_6rem_auto] sm:items-end" data-testid="quote-line">
              <input type="hidden" name={`lines[${i}].kind`} value={line.kind} />
              <Field label={`${t(`kinds.${line.kind}`)} – ${t('doc.description')}`} name={`lines[${i}].description`} errors={err(`lines.${i}.description`)}>
                <input id={`lines[${i}].description`} name={`lines[${i}].description`} defaultValue={line.description} className={fieldClass} maxLength={300} />
              </Field>
              <Field label={t('doc.quantity')} name={`lines[${i}].quantity`} errors={err(`lines.${i}.quantity`)}>
                <input id={`lines[${i}].quantity`} name={`lines[${i}].quantity`} inputMode="numeric" defaultValue={line.quantity} className={fieldClass} />
              </Field>
              <Field label={t('detail.unitPriceGross')} name={`lines[${i}].unitPrice`} errors={err(`lines.${i}.unitPrice`)}>
                <input id={`lines[${i}].unitPrice`} name={`lines[${i}].unitPrice`} inputMode="decimal" defaultValue={line.unitPrice} className={fieldClass} />
              </Field>
              {loaded.smallBusiness ? (
                <input type="hidden" name={`lines[${i}].vatRate`} value="0" />
              ) : (
                <Field label={t('doc.vatRate')} name={`lines[${i}].vatRate`} errors={err(`lines.${i}.vatRate`)}>
                  <select id={`lines[${i}].vatRate`} name={`lines[${i}].vatRate`} defaultValue={line.vatRate} className={fieldClass}>
                    {['19', '7', '0'].includes(line.vatRate) ? null : <option value={line.vatRate}>{line.vatRate} %</option>}
                    <option value="19">19 %</option>
                    <option value="7">7 %</option>
                    <option value="0">0 %</option>
                  </select>
                </Field>
              )}
              {lines.length > 1 ? (
                <button type="submit" name="intent" value={`removeLine:${i}`} className={buttonClassName({ variant: 'ghost', size: 'sm', className: 'text-danger-700' })}>
                  <X aria-hidden="true" className="size-4" />
                  {t('detail.removeLine')}
                </button>
              ) : (
                <span />
              )}
              <p className="text-sm text-ink-muted sm:col-span-5" data-testid="line-total">
                {t('doc.total')}:{' '}
                <output htmlFor={`lines[${i}].quantity lines[${i}].unitPrice`} className="font-medium tabular-nums text-ink">
                  {live.lineCents[i] != null ? formatCents(live.lineCents[i]!) : '–'}
                </output>
              </p>
            </li>
          ))}
        </ol>
        {lines.length < MAX_QUOTE_LINES ? (
          <div className="mt-4 flex flex-wrap gap-2">
            {(['shipping', 'setup', 'free'] as const).map((kind) => (
              <button key={kind} type="submit" name="intent" value={`addLine:${kind}`} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
                <Plus aria-hidden="true" className="size-4" />
                {t(`detail.add.${kind}`)}
              </button>
            ))}
          </div>
        ) : null}
      </fieldset>

      <fieldset className="grid gap-4 rounded-card border border-surface-line bg-surface p-4 shadow-card sm:grid-cols-2">
        <legend className="px-1 text-base font-semibold">{t('detail.more')}</legend>
        <Field label={t('detail.discount')} name="discountPercent" errors={err('discountPercent')}>
          <input id="discountPercent" name="discountPercent" inputMode="decimal" defaultValue={text('discountPercent')} className={fieldClass} />
        </Field>
        <div aria-live="polite" className="rounded-md bg-surface-subtle p-3 text-sm" data-testid="live-totals">
          {totals ? (
            <dl className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-0.5">
              {totals.discountCents > 0 ? (
                <>
                  <dt className="text-ink-muted">{t('doc.subtotal')}</dt>
                  <dd className="text-right tabular-nums">{formatCents(totals.subtotalCents)}</dd>
                  <dt className="text-ink-muted">{t('detail.liveDiscount')}</dt>
                  <dd className="text-right tabular-nums">{formatCents(-totals.discountCents)}</dd>
                </>
              ) : null}
              {!loaded.smallBusiness ? (
                <>
                  <dt className="text-ink-muted">{t('doc.net')}</dt>
                  <dd className="text-right tabular-nums">{formatCents(totals.netCents)}</dd>
                  {totals.vat.map((vat) => (
                    <Fragment key={vat.rate}>
                      <dt className="text-ink-muted">{t('doc.vat', { rate: String(vat.rate).replace('.', ',') })}</dt>
                      <dd className="text-right tabular-nums">{formatCents(vat.cents)}</dd>
                    </Fragment>
                  ))}
                </>
              ) : null}
              <dt className="font-semibold">{t('detail.liveGross')}</dt>
              <dd className="text-right font-semibold tabular-nums">{formatCents(totals.grossCents)}</dd>
              {loaded.smallBusiness ? <dd className="col-span-2 text-ink-muted">{t('doc.smallBusiness')}</dd> : null}
            </dl>
          ) : (
            <p className="text-ink-muted">{t('detail.totalsPending')}</p>
          )}
        </div>
        <Field label={t('detail.closingText')} name="closingText" errors={err('closingText')} className="sm:col-span-2">
          <textarea id="closingText" name="closingText" rows={3} defaultValue={text('closingText')} className={fieldClass} />
        </Field>
      </fieldset>
      <div className="flex justify-end">
        <button type="submit" name="intent" value="save" disabled={pending} className={buttonClassName({ variant: 'primary' })}>
          {pending ? t('detail.savePending') : t('detail.save')}
        </button>
      </div>
    </Form>
  );
}

/** Label, control and the control's German errors; a refused control is marked (aria-invalid) and points to its message. */
function Field({ label, name, errors, className, children }: { label: string; name: string; errors?: string[]; className?: string; children: ReactElement }) {
  const invalid = Boolean(errors && errors.length > 0);
  const errorId = `${name}-error`;
  const control = isValidElement<Record<string, unknown>>(children)
    ? cloneElement(children, { 'aria-invalid': invalid || undefined, 'aria-describedby': invalid ? errorId : undefined })
    : children;
  return (
    <div className={className}>
      <label htmlFor={name} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      {control}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

function StatusForm() {
  const { t } = useTranslation('quotes');
  const { view } = useLoaderData<typeof loader>();
  const targets = view.isDraft ? (['sent'] as const) : (['sent', 'accepted', 'rejected'] as const).filter((status) => status !== view.status);
  return (
    <section aria-labelledby="quote-status-title" className="mt-6 rounded-card border border-surface-line bg-surface p-4 shadow-card">
      <h2 id="quote-status-title" className="text-base font-semibold">
        {t('detail.statusTitle')}
      </h2>
      <Form method="post" className="mt-3 flex flex-wrap gap-2">
        <input type="hidden" name="intent" value="setStatus" />
        {targets.map((status) => (
          <button key={status} type="submit" name="status" value={status} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
            {t(`detail.markAs.${status}`)}
          </button>
        ))}
      </Form>
    </section>
  );
}

function SendForm() {
  const { t } = useTranslation('quotes');
  const { send, view } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const { errors, values } = useFormErrors('send');
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'send';
  if (view.status === 'accepted' || view.status === 'rejected') return null;
  const value = (name: 'to' | 'subject' | 'message') => (values ? String(values[name] ?? '') : send[name]);
  return (
    <section id="senden" aria-labelledby="quote-send-title" className="mt-6 rounded-card border border-surface-line bg-surface p-4 shadow-card">
      <h2 id="quote-send-title" className="text-base font-semibold">
        {t('detail.sendTitle')}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t('detail.sendIntro')}</p>
      {/* Keyed by the default mail: a save that changes the customer (with scripts, no new page) brings the new greeting into the fields. */}
      <Form key={`${send.to}\n${send.subject}\n${send.message}`} method="post" action={`/angebote/${view.id}#senden`} className="mt-3 space-y-3">
        <input type="hidden" name="intent" value="send" />
        {errors[''] ? (
          <p role="alert" className="rounded-md border border-danger-600/40 bg-danger-50 px-3 py-2 text-sm text-danger-700">
            {errors[''].join(' ')}
          </p>
        ) : null}
        <Field label={t('detail.sendTo')} name="send-to" errors={errors.to}>
          <input id="send-to" name="to" type="email" defaultValue={value('to')} className={inputClassName} required />
        </Field>
        <Field label={t('detail.sendSubject')} name="send-subject" errors={errors.subject}>
          <input id="send-subject" name="subject" defaultValue={value('subject')} className={inputClassName} required maxLength={200} />
        </Field>
        <Field label={t('detail.sendMessage')} name="send-message" errors={errors.message}>
          <textarea id="send-message" name="message" rows={8} defaultValue={value('message')} className={inputClassName} required />
        </Field>
        <div className="flex justify-end">
          <button type="submit" disabled={pending} className={buttonClassName({ variant: 'primary' })}>
            <Send aria-hidden="true" className="size-4" />
            {pending ? t('detail.sendPending') : t('detail.send')}
          </button>
        </div>
      </Form>
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.meta.title }, { name: 'robots', content: 'noindex' }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
