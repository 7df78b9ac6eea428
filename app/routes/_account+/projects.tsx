import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { Copy, FileText, FolderOpen, ImageOff, Plus, Search, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { SignInRequired } from '~/components/sign-in-required';
import { showToast } from '~/components/toaster';
import { ButtonLink, buttonClassName } from '~/components/ui/button-link';
import { Pagination } from '~/components/ui/pagination';
import { getServerT } from '~/i18n.server';
import { productImageUrl } from '~/models/product-images';
import {
  canCreateProjectGiven,
  copyProject,
  deleteProject,
  getProject,
  listProjects,
  projectMinimumPriceWithVat,
} from '~/models/projects.server';
import { MAX_SEARCH_LENGTH } from '~/models/projects';
import { getRequestContext } from '~/services/auth.server';
import type { UserContext } from '~/services/request-context.server';
import { formatEuro } from '~/utils/number';
import { redirectWithToast, type ToastInput } from '~/utils/toast.server';

export const handle = { i18n: ['projects'] };

const DELETE_PARAM = 'loeschen';
const LIMIT_PARAM = 'limit';
const dateFormat = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeZone: 'Europe/Berlin' });

/** The list's own address (search and page kept), so actions come back to where the user was. */
function listHref(q: string, page: number, extra: Record<string, string> = {}) {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (page > 1) params.set('page', String(page));
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const query = params.toString();
  return query ? `/projects?${query}` : '/projects';
}

export async function loader(args: LoaderFunctionArgs) {
  const t = await getServerT('projects');
  const meta = { title: t('meta.title'), description: t('meta.description') };
  const ctx = await getRequestContext(args);
  // Spec §2/§6: visitors get the sign-in-required card (and no database query).
  if (!ctx.user) return { signedIn: false as const, meta };
  const user = ctx as UserContext;
  const params = new URL(args.request.url).searchParams;
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  const list = await listProjects(user, { q: params.get('q') ?? '', page });
  const canCreate = await canCreateProjectGiven(user, list);
  // Without JavaScript the delete button leads here first: a confirmation view (spec §2: it cannot be undone).
  const deleteId = params.get(DELETE_PARAM);
  const toDelete = deleteId ? await getProject(user, deleteId) : null;
  return {
    signedIn: true as const,
    meta,
    q: list.q,
    page: list.page,
    hasNext: list.hasNext,
    canCreate,
    showLimit: params.has(LIMIT_PARAM) && !canCreate,
    confirmDelete: toDelete?.kind === 'ok' ? { id: toDelete.value.id, name: toDelete.value.name } : null,
    projects: list.items.map((project) => {
      const price = projectMinimumPriceWithVat(project);
      return {
        id: project.id,
        name: project.name,
        quantity: project.quantity,
        minimumPrice: price === null ? null : formatEuro(price),
        updatedAt: dateFormat.format(project.updatedAt),
        image: project.productImagePath ? productImageUrl(project.productImagePath) : null,
      };
    }),
  };
}

/** Copy and delete (intent + id); each answers with a redirect to the list and the §8 toast. */
export async function action(args: ActionFunctionArgs) {
  // A body that is not a readable form (broken multipart) is a bad request, never a 500.
  const form = await args.request.formData().catch(() => null);
  if (!form) throw new Response('Bad Request', { status: 400 });
  const intent = form.get('intent');
  const id = form.get('id');
  const q = String(form.get('q') ?? '').slice(0, MAX_SEARCH_LENGTH);
  const page = Number.parseInt(String(form.get('page') ?? '1'), 10) || 1;
  const ctx = await getRequestContext(args);
  if (!ctx.user) throw redirect(`/auth?${new URLSearchParams({ redirectTo: '/projects' })}`);
  const user = ctx as UserContext;
  const t = await getServerT('projects');
  const back = (toast: ToastInput, toPage = page) => redirectWithToast(listHref(q, toPage), toast);

  if (intent === 'copy') {
    const result = await copyProject(user, id);
    if (result.kind === 'ok') {
      // The copy is the newest project: the first page shows it.
      return back({ title: t('toast.copied'), description: t('toast.copiedText', { name: result.value.name }) }, 1);
    }
    if (result.kind === 'forbidden') {
      return back({ type: 'error', title: t('limit.title'), description: t('limit.text'), action: { label: t('limit.upgrade'), href: '/premium' } });
    }
    return back({ type: 'error', title: t('toast.copyError'), description: t('toast.copyErrorText') });
  }
  if (intent === 'delete') {
    const result = await deleteProject(user, id);
    if (result.kind === 'ok') {
      return back({ title: t('toast.deleted'), description: t('toast.deletedText', { name: result.value.name }) });
    }
    return back({ type: 'error', title: t('toast.deleteError'), description: t('toast.deleteErrorText') });
  }
  return back({ type: 'error', title: t('toast.saveError'), description: t('toast.saveErrorText') });
}

export default function ProjectsPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation('projects');
  const location = useLocation();
  if (!data.signedIn) {
    return (
      <main className="mx-auto max-w-page px-4 py-8 sm:py-12">
        <h1 className="mb-6 text-2xl font-bold sm:text-3xl">{t('common:pages.projects.title')}</h1>
        <SignInRequired feature="projects" redirectTo={location.pathname} />
      </main>
    );
  }
  const { q, page, hasNext, projects, canCreate, confirmDelete, showLimit } = data;
  return (
    <main className="mx-auto max-w-page px-4 py-8 sm:py-12">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">{t('heading')}</h1>
          <p className="mt-1 text-ink-muted">{t('intro')}</p>
        </div>
        <NewProjectButton canCreate={canCreate} q={q} page={page} />
      </div>

      {showLimit ? <LimitNotice q={q} page={page} /> : null}
      {confirmDelete ? <DeleteConfirmation project={confirmDelete} q={q} page={page} /> : null}

      <Form method="get" role="search" className="mb-6 flex max-w-xl gap-2">
        <label htmlFor="project-search" className="sr-only">
          {t('search.label')}
        </label>
        <input
          id="project-search"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={MAX_SEARCH_LENGTH}
          placeholder={t('search.placeholder')}
          className="min-w-0 flex-1 rounded-md border border-surface-line bg-surface px-3 py-2"
        />
        <button type="submit" className={buttonClassName({ variant: 'secondary' })}>
          <Search aria-hidden="true" className="size-4" />
          {t('search.submit')}
        </button>
      </Form>

      {projects.length === 0 ? (
        <EmptyState q={q} page={page} />
      ) : (
        <ul data-project-list className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {projects.map((project) => (
            <ProjectCard key={project.id} project={project} q={q} page={page} />
          ))}
        </ul>
      )}

      <Pagination page={page} hasNext={hasNext} href={(target) => listHref(q, target)} />
    </main>
  );
}

type ProjectCardData = { id: string; name: string; quantity: number; minimumPrice: string | null; updatedAt: string; image: string | null };

/**
 * 'Neues Projekt': to the calculator, or for a free user at the limit the §8
 * toast (with JavaScript) or the limit notice (without) and no navigation.
 */
function NewProjectButton({ canCreate, q, page }: { canCreate: boolean; q: string; page: number }) {
  const { t } = useTranslation('projects');
  return (
    <ButtonLink
      to={canCreate ? '/calculator' : listHref(q, page, { [LIMIT_PARAM]: '1' })}
      data-new-project
      onClick={(event) => {
        if (canCreate) return;
        event.preventDefault();
        showToast({ type: 'error', title: t('limit.title'), description: t('limit.text'), action: { label: t('limit.upgrade'), href: '/premium' } });
      }}
    >
      <Plus aria-hidden="true" className="size-4" />
      {t('newProject')}
    </ButtonLink>
  );
}

function LimitNotice({ q, page }: { q: string; page: number }) {
  const { t } = useTranslation('projects');
  return (
    <section role="alert" data-limit-notice className="mb-6 rounded-card border border-danger-600/40 bg-danger-50 p-4 text-danger-700">
      <h2 className="font-semibold">{t('limit.title')}</h2>
      <p className="mt-1 text-sm">{t('limit.text')}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <ButtonLink to="/premium" size="sm">
          {t('limit.upgrade')}
        </ButtonLink>
        <ButtonLink to={listHref(q, page)} variant="secondary" size="sm">
          {t('limit.back')}
        </ButtonLink>
      </div>
    </section>
  );
}

/** The no-JS confirmation view (`?loeschen=<id>`); with JavaScript the card opens an alert dialog instead. */
function DeleteConfirmation({ project, q, page }: { project: { id: string; name: string }; q: string; page: number }) {
  const { t } = useTranslation('projects');
  return (
    <section role="alertdialog" aria-labelledby="delete-confirm-title" aria-describedby="delete-confirm-text" data-delete-confirmation className="mb-6 rounded-card border border-danger-600/40 bg-surface p-4 shadow-card">
      <DeleteForm project={project} q={q} page={page} cancel={<ButtonLink to={listHref(q, page)} variant="secondary" size="sm">{t('delete.cancel')}</ButtonLink>} />
    </section>
  );
}

function DeleteForm({ project, q, page, cancel }: { project: { id: string; name: string }; q: string; page: number; cancel: React.ReactNode }) {
  const { t } = useTranslation('projects');
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('id') === project.id;
  return (
    <>
      <h2 id="delete-confirm-title" className="text-lg font-semibold">
        {t('delete.title')}
      </h2>
      <p id="delete-confirm-text" className="mt-1 text-sm text-ink-muted">
        {t('delete.text', { name: project.name })}
      </p>
      <Form method="post" action="/projects" className="mt-4 flex flex-wrap justify-end gap-2">
        <input type="hidden" name="id" value={project.id} />
        <input type="hidden" name="q" value={q} />
        <input type="hidden" name="page" value={page} />
        {cancel}
        <button type="submit" name="intent" value="delete" disabled={busy} className={buttonClassName({ size: 'sm', className: 'bg-danger-600 text-white hover:bg-danger-700' })}>
          <Trash2 aria-hidden="true" className="size-4" />
          {t('delete.confirm')}
        </button>
      </Form>
    </>
  );
}

function ProjectCard({ project, q, page }: { project: ProjectCardData; q: string; page: number }) {
  const { t } = useTranslation('projects');
  const dialog = useRef<HTMLDialogElement>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const openDialog = (event: React.MouseEvent) => {
    // With JavaScript: an alert dialog on this page instead of the confirmation view.
    event.preventDefault();
    setDialogOpen(true);
    dialog.current?.showModal();
  };
  const closeDialog = () => {
    dialog.current?.close();
    setDialogOpen(false);
  };
  return (
    <li data-project-card={project.id} className="flex flex-col overflow-hidden rounded-card border border-surface-line bg-surface shadow-card">
      <div className="aspect-[4/3] bg-surface-subtle">
        {project.image ? (
          <img src={project.image} alt={t('card.imageAlt', { name: project.name })} loading="lazy" className="h-full w-full object-cover" />
        ) : (
          <div data-image-placeholder className="flex h-full w-full flex-col items-center justify-center gap-1 text-ink-faint">
            <ImageOff aria-hidden="true" className="size-8" />
            <span className="text-xs">{t('card.noImage')}</span>
          </div>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-4">
        <h2 className="break-words text-base font-semibold">{project.name}</h2>
        <p className="text-sm text-ink-muted">{t('card.quantity', { count: project.quantity })}</p>
        <p className="text-sm">
          <span className="text-ink-muted">{t('card.minimumPrice')}: </span>
          <span data-min-price className="font-semibold">
            {project.minimumPrice ?? t('card.priceImpossible')}
          </span>
        </p>
        <p className="text-xs text-ink-faint">{t('card.updatedAt', { date: project.updatedAt })}</p>
        <div className="mt-auto flex flex-wrap gap-2 pt-3">
          <Link to={`/calculator?project=${project.id}`} aria-label={t('card.openNamed', { name: project.name })} className={buttonClassName({ size: 'sm' })}>
            <FolderOpen aria-hidden="true" className="size-4" />
            {t('card.open')}
          </Link>
          <Link to={`/angebote/neu?project=${project.id}`} aria-label={t('card.createQuoteNamed', { name: project.name })} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
            <FileText aria-hidden="true" className="size-4" />
            {t('card.createQuote')}
          </Link>
          <Form method="post" action="/projects">
            <input type="hidden" name="id" value={project.id} />
            <input type="hidden" name="q" value={q} />
            <input type="hidden" name="page" value={page} />
            <button type="submit" name="intent" value="copy" aria-label={t('card.copyNamed', { name: project.name })} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
              <Copy aria-hidden="true" className="size-4" />
              {t('card.copy')}
            </button>
          </Form>
          <Link
            to={listHref(q, page, { [DELETE_PARAM]: project.id })}
            onClick={openDialog}
            aria-label={t('card.deleteNamed', { name: project.name })}
            aria-haspopup="dialog"
            className={buttonClassName({ variant: 'ghost', size: 'sm', className: 'text-danger-700 hover:bg-danger-50' })}
          >
            <Trash2 aria-hidden="true" className="size-4" />
            {t('card.delete')}
          </Link>
        </div>
      </div>
      <dialog
        ref={dialog}
        role="alertdialog"
        aria-labelledby="delete-confirm-title"
        onClose={() => setDialogOpen(false)}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-card border border-surface-line bg-surface p-5 shadow-lg backdrop:bg-ink/40"
      >
        {dialogOpen ? (
          <DeleteForm
            project={project}
            q={q}
            page={page}
            cancel={
              // An alert dialog puts focus on its least destructive action (WAI-ARIA), here "Abbrechen".
              // eslint-disable-next-line jsx-a11y/no-autofocus
              <button type="button" onClick={closeDialog} autoFocus className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
                {t('delete.cancel')}
              </button>
            }
          />
        ) : null}
      </dialog>
    </li>
  );
}

function EmptyState({ q, page }: { q: string; page: number }) {
  const { t } = useTranslation('projects');
  const searching = q !== '';
  return (
    <section data-empty-state className="mx-auto max-w-md rounded-card border border-dashed border-surface-line bg-surface p-6 text-center">
      <h2 className="text-lg font-semibold">{searching ? t('empty.searchTitle') : t('empty.title')}</h2>
      <p className="mt-2 text-sm text-ink-muted">{searching ? t('empty.searchText', { q }) : t('empty.text')}</p>
      {searching || page > 1 ? (
        <ButtonLink to="/projects" variant="secondary" size="sm" className="mt-4">
          {t('search.clear')}
        </ButtonLink>
      ) : (
        <ButtonLink to="/calculator" size="sm" className="mt-4">
          {t('newProject')}
        </ButtonLink>
      )}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.meta.title }, { name: 'description', content: data.meta.description }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
