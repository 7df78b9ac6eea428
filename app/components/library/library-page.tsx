import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate, useNavigation } from '@remix-run/react';
import { Pencil, Plus, Power, Search, Trash2, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SignInRequired } from '~/components/sign-in-required';
import { buttonClassName, ButtonLink } from '~/components/ui/button-link';
import { inputClassName } from '~/components/ui/field';
import { Pagination } from '~/components/ui/pagination';
import {
  isMoneyField,
  libraryDefaults,
  libraryDefinitions,
  librarySchema,
  percentMeaning,
  splitMessage,
  type FieldDef,
  type LibraryItem,
  type LibraryKind,
  type LibraryLoaderData,
} from '~/domain/library-definitions';
import { formatDecimalInput, formatMoneyInput } from '~/lib/number';
import { useHydrated } from '~/lib/use-hydrated';
import { LibraryAdvice } from './library-advice';

/**
 * The one page of the five libraries, driven by the kind's definition
 * (domain/library-definitions.ts). Without JavaScript the add/edit form and
 * the delete confirmation render on the page (`?new`, `?edit=<id>`,
 * `?delete=<id>`); with JavaScript the same markup sits in a modal <dialog>.
 */

type ActionData = { intent?: string | null; result?: Parameters<typeof useForm>[0]['lastResult'] } | undefined;

/** The page's own address with some parameters replaced (q is kept). */
function useHref() {
  const location = useLocation();
  return (changes: Record<string, string | null>) => {
    const params = new URLSearchParams(location.search);
    for (const name of ['new', 'edit', 'delete']) params.delete(name);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) params.delete(name);
      else params.set(name, value);
    }
    const search = params.toString().replace(/=(?=&|$)/g, '');
    return `${location.pathname}${search ? `?${search}` : ''}`;
  };
}

export function LibraryPage() {
  const data = useLoaderData<LibraryLoaderData>();
  const { t } = useTranslation('library');
  const definition = libraryDefinitions[data.kind];
  const location = useLocation();
  const headingId = useId();
  const hydrated = useHydrated();
  const href = useHref();

  if (!data.signedIn) {
    return (
      <main className="mx-auto max-w-page px-4 py-8 sm:py-12">
        <h1 className="mb-6 text-2xl font-bold sm:text-3xl">{t(`${data.kind}.title`)}</h1>
        <SignInRequired feature={data.kind} redirectTo={location.pathname} />
      </main>
    );
  }

  return (
    <main className="mx-auto w-full min-w-0 max-w-page px-4 py-8 sm:py-12" data-library={data.kind}>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 id={headingId} className="text-2xl font-bold sm:text-3xl">
            {t(`${data.kind}.title`)}
          </h1>
          <p className="mt-1 text-ink-muted">{t(`${data.kind}.intro`)}</p>
        </div>
        <AddLink kind={data.kind} />
      </div>

      {!hydrated && data.mode ? (
        // Without scripts the form is part of the page, right under the heading.
        <div className="mt-6">
          <Panels data={data} />
        </div>
      ) : null}

      <SearchForm kind={data.kind} q={data.q} />

      <section aria-labelledby={headingId} className="mt-6">
        {data.items.length === 0 ? (
          <EmptyState kind={data.kind} searching={data.q.trim() !== ''} />
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-library-grid>
            {data.items.map((item) => (
              <li key={item.id}>
                <ItemCard kind={data.kind} item={item} q={data.q} />
              </li>
            ))}
          </ul>
        )}
        <Pagination page={data.page} hasNext={data.hasNext} href={(page) => href({ page: page > 1 ? String(page) : null })} />
      </section>

      {definition.advice ? <LibraryAdvice kind={data.kind} advice={definition.advice} q={data.q} /> : null}

      {hydrated && data.mode ? <Panels data={data} /> : null}
    </main>
  );
}

function AddLink({ kind }: { kind: LibraryKind }) {
  const { t } = useTranslation('library');
  const href = useHref();
  return (
    <ButtonLink to={href({ new: '' })} preventScrollReset id="library-add">
      <Plus aria-hidden="true" className="size-4" />
      {t(`${kind}.add`)}
    </ButtonLink>
  );
}

function SearchForm({ kind, q }: { kind: LibraryKind; q: string }) {
  const { t } = useTranslation('library');
  const id = useId();
  return (
    <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-2">
      <div className="min-w-0 flex-1 basis-56">
        <label htmlFor={id} className="mb-1.5 block text-sm font-medium">
          {t('common.searchLabel')}
        </label>
        <input id={id} type="search" name="q" defaultValue={q} key={q} placeholder={t(`${kind}.searchPlaceholder`)} className={inputClassName} />
      </div>
      <button type="submit" className={buttonClassName({ variant: 'secondary' })}>
        <Search aria-hidden="true" className="size-4" />
        {t('common.searchSubmit')}
      </button>
      {q ? (
        <Link to={libraryDefinitions[kind].path} className={buttonClassName({ variant: 'ghost' })}>
          {t('common.clearSearch')}
        </Link>
      ) : null}
    </Form>
  );
}

function EmptyState({ kind, searching }: { kind: LibraryKind; searching: boolean }) {
  const { t } = useTranslation('library');
  return (
    <div className="rounded-card border border-dashed border-surface-line bg-surface p-8 text-center" data-library-empty>
      <p className="text-lg font-semibold">{t(searching ? `${kind}.noResults` : `${kind}.empty`)}</p>
      {searching ? null : <p className="mt-2 text-ink-muted">{t(`${kind}.emptyText`)}</p>}
    </div>
  );
}

function ItemCard({ kind, item, q }: { kind: LibraryKind; item: LibraryItem; q: string }) {
  const { t } = useTranslation('library');
  const definition = libraryDefinitions[kind];
  const href = useHref();
  const subtitle = definition.subtitle(item, t);
  const active = item.isActive === 1;
  const navigation = useNavigation();
  const toggling =
    navigation.state === 'submitting' && navigation.formData?.get('id') === item.id && navigation.formData?.get('intent') !== 'save';
  return (
    <article className="flex h-full flex-col rounded-card border border-surface-line bg-surface p-4 shadow-card" data-library-item={item.name}>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="break-words text-base font-semibold">{item.name}</h2>
          {subtitle ? <p className="break-words text-sm text-ink-muted">{subtitle}</p> : null}
        </div>
        <span
          className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold ${active ? 'bg-success-50 text-success-600' : 'bg-surface-subtle text-ink-muted'}`}
        >
          {t(active ? 'common.active' : 'common.inactive')}
        </span>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
        {definition.figures.map((figure) => (
          <div key={figure.label} className="contents">
            <dt className="text-ink-muted">{t(figure.label)}</dt>
            <dd className="text-right font-medium tabular-nums">{figure.value(item)}</dd>
          </div>
        ))}
      </dl>
      {/* Packaging, shipping and marketplaces keep a description; a card that has one shows it. */}
      {typeof item.description === 'string' && item.description.trim() ? (
        <p className="mt-3 whitespace-pre-line break-words text-sm text-ink-muted" data-library-description>
          {item.description}
        </p>
      ) : null}
      <div className="mt-auto flex flex-wrap gap-2 pt-4">
        <Link to={href({ edit: item.id })} preventScrollReset className={buttonClassName({ variant: 'secondary', size: 'sm' })} aria-label={t('common.editItem', { name: item.name })}>
          <Pencil aria-hidden="true" className="size-4" />
          {t('common.edit')}
        </Link>
        {definition.activeSwitch ? null : (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value={active ? 'deactivate' : 'activate'} />
            <input type="hidden" name="id" value={item.id} />
            <input type="hidden" name="q" value={q} />
            <button
              type="submit"
              disabled={toggling}
              className={buttonClassName({ variant: 'ghost', size: 'sm' })}
              aria-label={t(active ? 'common.deactivateItem' : 'common.activateItem', { name: item.name })}
            >
              <Power aria-hidden="true" className="size-4" />
              {t(active ? 'common.deactivate' : 'common.activate')}
            </button>
          </Form>
        )}
        <Link
          to={href({ delete: item.id })}
          preventScrollReset
          className={buttonClassName({ variant: 'ghost', size: 'sm', className: 'text-danger-700 hover:bg-danger-50 hover:text-danger-700' })}
          aria-label={t('common.deleteItem', { name: item.name })}
        >
          <Trash2 aria-hidden="true" className="size-4" />
          {t('common.delete')}
        </Link>
      </div>
    </article>
  );
}

type SignedIn = Extract<LibraryLoaderData, { signedIn: true }>;

function Panels({ data }: { data: SignedIn }) {
  if (data.mode === 'delete' && data.item) return <DeletePanel kind={data.kind} item={data.item} q={data.q} />;
  if (data.mode === 'new' || (data.mode === 'edit' && data.item)) return <FormPanel kind={data.kind} item={data.item} q={data.q} />;
  return null;
}

/**
 * With scripts: a modal <dialog> (showModal makes the page behind inert and
 * traps focus; Escape closes it) that gives focus back to whatever opened it.
 * Without scripts (and during hydration): a plain section on the page.
 */
function Modal({ labelledBy, role, closeTo, children }: { labelledBy: string; role?: 'alertdialog'; closeTo: string; children: ReactNode }) {
  const hydrated = useHydrated();
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      // Back to the button that opened the dialog, or to "add" when that is gone (e.g. after a delete).
      const target = opener?.isConnected && opener !== document.body ? opener : document.getElementById('library-add');
      requestAnimationFrame(() => target?.focus());
    };
  }, [hydrated]);

  if (!hydrated) {
    return (
      <section aria-labelledby={labelledBy} role={role} className="rounded-card border border-brand-200 bg-surface p-4 shadow-card sm:p-6" data-library-panel>
        {children}
      </section>
    );
  }
  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      role={role}
      onCancel={(event) => {
        event.preventDefault();
        navigate(closeTo, { preventScrollReset: true, replace: true });
      }}
      className="m-auto w-[calc(100%-1rem)] max-w-lg rounded-card border border-surface-line bg-surface p-4 text-ink shadow-card backdrop:bg-ink/50 sm:p-6"
      data-library-panel
    >
      {children}
    </dialog>
  );
}

function CloseLink({ to }: { to: string }) {
  const { t } = useTranslation('library');
  return (
    <Link to={to} preventScrollReset replace className="rounded-md p-1 text-ink-muted hover:bg-surface-subtle hover:text-ink" aria-label={t('common.close')}>
      <X aria-hidden="true" className="size-5" />
    </Link>
  );
}

function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  const { t } = useTranslation('library');
  if (!errors || errors.length === 0) return null;
  return (
    <ul id={id} className="mt-1.5 space-y-0.5 text-sm text-danger-700">
      {errors.map((error) => {
        const { key, params } = splitMessage(error);
        return <li key={error}>{/^[a-z][\w-]*:[\w.]+$/i.test(key) ? t(key, params) : key}</li>;
      })}
    </ul>
  );
}

function formDefaults(kind: LibraryKind, item: LibraryItem | null): Record<string, string> {
  const source = item ?? libraryDefaults(kind);
  const values: Record<string, string> = {};
  for (const field of libraryDefinitions[kind].fields) {
    const value = source[field.name];
    if (field.type === 'switch') values[field.name] = Number(value) === 1 ? 'on' : '';
    else if (field.type === 'number') values[field.name] = typeof value !== 'number' ? '' : isMoneyField(field) ? formatMoneyInput(value) : formatDecimalInput(value);
    else values[field.name] = value === null || value === undefined ? '' : String(value);
  }
  return values;
}

function FormPanel({ kind, item, q }: { kind: LibraryKind; item: LibraryItem | null; q: string }) {
  const { t } = useTranslation('library');
  const titleId = useId();
  const href = useHref();
  const location = useLocation();
  const actionData = useActionData<ActionData>();
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const schema = librarySchema(kind);
  const [form, fields] = useForm({
    id: `library-form-${kind}-${item?.id ?? 'new'}`,
    lastResult: actionData?.intent === 'save' ? actionData.result : undefined,
    defaultValue: formDefaults(kind, item),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const closeTo = href({});
  const formErrors = form.errors as string[] | undefined;
  return (
    <Modal labelledBy={titleId} closeTo={closeTo}>
      <div className="mb-4 flex items-start justify-between gap-4">
        <h2 id={titleId} className="text-lg font-semibold">
          {t(item ? `${kind}.editTitle` : `${kind}.newTitle`)}
        </h2>
        <CloseLink to={closeTo} />
      </div>
      <Form method="post" action={`${location.pathname}${location.search}`} preventScrollReset {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="q" value={q} />
        {item ? <input type="hidden" name="id" value={item.id} /> : null}
        {formErrors?.length || (actionData?.intent === 'save' && actionData.result?.status === 'error') ? (
          // Spec §8: "Fehler" / "Der Drucker konnte nicht gespeichert werden."; the reasons sit next to the fields.
          <div role="alert" className="rounded-md border border-danger-600/40 bg-danger-50 px-3 py-2 text-sm text-danger-700">
            <p className="font-semibold">
              {t('toast.errorTitle')}: {t(`${kind}.saveFailed`)}
            </p>
            <FieldErrors id={form.errorId} errors={formErrors} />
          </div>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          {libraryDefinitions[kind].fields.map((field) => (
            <LibraryField key={field.name} field={field} meta={fields[field.name as keyof typeof fields] as FieldMetadata<string>} />
          ))}
        </div>
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <Link to={closeTo} preventScrollReset replace className={buttonClassName({ variant: 'ghost' })}>
            {t('common.cancel')}
          </Link>
          <button type="submit" disabled={pending} aria-disabled={pending} className={buttonClassName()}>
            {pending ? t('common.saving') : t('common.save')}
          </button>
        </div>
      </Form>
    </Modal>
  );
}

function LibraryField({ field, meta }: { field: FieldDef; meta: FieldMetadata<string> }) {
  const { t } = useTranslation('library');
  const wide = field.type === 'textarea' || field.type === 'switch' || field.name === 'name';
  const hintId = `${meta.id}-hint`;
  const [typed, setTyped] = useState(meta.initialValue ?? '');
  const label = (
    <label htmlFor={meta.id} className="mb-1.5 block text-sm font-medium">
      {t(field.label)}
    </label>
  );
  const errors = <FieldErrors id={meta.errorId} errors={meta.errors} />;

  switch (field.type) {
    case 'switch': {
      const { key, ...props } = getInputProps(meta, { type: 'checkbox' });
      return (
        <div className="sm:col-span-2">
          <label className="flex items-center gap-3 text-sm font-medium">
            <input key={key} {...props} className="size-5 accent-brand-600" />
            {t(field.label)}
          </label>
          {errors}
        </div>
      );
    }
    case 'select': {
      const { key, ...props } = getSelectProps(meta);
      return (
        <div>
          {label}
          <select key={key} {...props} className={inputClassName}>
            {field.options.map((option) => (
              <option key={option} value={option}>
                {t(`${field.optionLabel}.${option}`)}
              </option>
            ))}
          </select>
          {errors}
        </div>
      );
    }
    case 'textarea': {
      const { key, ...props } = getTextareaProps(meta);
      return (
        <div className="sm:col-span-2">
          {label}
          <textarea key={key} {...props} rows={3} maxLength={field.max} className={inputClassName} />
          {errors}
        </div>
      );
    }
    case 'text': {
      const { key, ...props } = getInputProps(meta, { type: 'text' });
      return (
        <div className={wide ? 'sm:col-span-2' : undefined}>
          {label}
          <input key={key} {...props} maxLength={field.max} placeholder={field.placeholder ? t(field.placeholder) : undefined} className={inputClassName} />
          {errors}
        </div>
      );
    }
    case 'number': {
      const { key, ...props } = getInputProps(meta, { type: 'text', ariaDescribedBy: field.showAsPercent ? hintId : undefined });
      return (
        <div>
          {label}
          <div className="flex items-center gap-2">
            <input
              key={key}
              {...props}
              inputMode="decimal"
              autoComplete="off"
              data-step={field.step}
              onInput={field.showAsPercent ? (event) => setTyped(event.currentTarget.value) : undefined}
              className={inputClassName}
            />
            <span className="shrink-0 text-sm text-ink-muted">{t(field.unit)}</span>
          </div>
          {field.showAsPercent ? (
            <p id={hintId} className="mt-1 text-xs text-ink-muted">
              <output htmlFor={meta.id} aria-live="polite" className="font-semibold text-ink" data-percent-meaning>
                {percentMeaning(typed)}
              </output>{' '}
              {t(`hints.${field.name}`)}
            </p>
          ) : null}
          {errors}
        </div>
      );
    }
  }
}

function DeletePanel({ kind, item, q }: { kind: LibraryKind; item: LibraryItem; q: string }) {
  const { t } = useTranslation('library');
  const titleId = useId();
  const href = useHref();
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'delete';
  const closeTo = href({});
  return (
    <Modal labelledBy={titleId} role="alertdialog" closeTo={closeTo}>
      <h2 id={titleId} className="text-lg font-semibold">
        {t(`${kind}.deleteTitle`)}
      </h2>
      <p className="mt-2">{t(`${kind}.deleteText`, { name: item.name })}</p>
      <p className="mt-1 text-sm font-medium text-danger-700">{t('common.deleteWarning')}</p>
      <Form method="post" action={libraryDefinitions[kind].path} preventScrollReset className="mt-6 flex flex-wrap justify-end gap-2">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={item.id} />
        <input type="hidden" name="q" value={q} />
        <Link to={closeTo} preventScrollReset replace className={buttonClassName({ variant: 'ghost' })}>
          {t('common.cancel')}
        </Link>
        <button type="submit" disabled={pending} className={buttonClassName({ className: 'bg-danger-600 hover:bg-danger-700' })}>
          {pending ? t('common.deleting') : t('common.deleteConfirm')}
        </button>
      </Form>
    </Modal>
  );
}
