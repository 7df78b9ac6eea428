import { Form, Link, useNavigation, useSubmit } from '@remix-run/react';
import { Copy, Download, FileText, FolderOpen, ImageOff, Plus, Search, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONFIRM_DELETE_PARAM, LIMIT_NOTICE_PARAM, MAX_SEARCH_LENGTH, PROJECT_SORTS, projectListHref, SORT_PARAM, type ProjectSort, type ProjectUsage } from '~/domain/projects';
import { ProjectUsageNote } from './project-usage';
import { showToast } from '../toaster';
import { ButtonLink, buttonClassName } from '../ui/button-link';
import { Pagination } from '../ui/pagination';

/**
 * The signed-in user's project list (/projects): search, cards with open,
 * copy and delete, paging, and the plan's limit. Copy and delete post to the
 * route's action; without JavaScript delete asks on a confirmation view
 * (`?loeschen=<id>`), with it in an alert dialog.
 */

export type ProjectCardData = { id: string; name: string; quantity: number; minimumPrice: string | null; updatedAt: string; image: string | null };

/** Where the list stands: search, order and page, kept by every link and form on it. */
type Where = { q: string; page: number; sort: ProjectSort };

const listHref = ({ q, page, sort }: Where, extra: Record<string, string> = {}) => projectListHref(q, page, extra, sort);

export type ProjectListProps = {
  q: string;
  page: number;
  sort: ProjectSort;
  hasNext: boolean;
  projects: ProjectCardData[];
  canCreate: boolean;
  /** A free user's '2 von 3 Projekten'; null for Premium. */
  usage: ProjectUsage | null;
  confirmDelete: { id: string; name: string } | null;
  showLimit: boolean;
};

export function ProjectList({ q, page, sort, hasNext, projects, canCreate, usage, confirmDelete, showLimit }: ProjectListProps) {
  const { t } = useTranslation('projects');
  const where: Where = { q, page, sort };
  return (
    <main className="mx-auto max-w-page px-4 py-8 sm:py-12">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">{t('heading')}</h1>
          <p className="mt-1 text-ink-muted">{t('intro')}</p>
          <ProjectUsageNote usage={usage} className="mt-2" />
        </div>
        <div className="flex flex-wrap gap-2">
          <ExportCsvLink />
          <NewProjectButton canCreate={canCreate} where={where} />
        </div>
      </div>

      {showLimit ? <LimitNotice where={where} /> : null}
      {confirmDelete ? <DeleteConfirmation project={confirmDelete} where={where} /> : null}

      <SearchAndSort where={where} />

      {projects.length === 0 ? (
        <EmptyState where={where} />
      ) : (
        <ul data-project-list className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {projects.map((project) => (
            <ProjectCard key={project.id} project={project} where={where} />
          ))}
        </ul>
      )}

      <Pagination page={page} hasNext={hasNext} href={(target) => listHref({ ...where, page: target })} />
    </main>
  );
}

/**
 * 'Neues Projekt': to the calculator, or for a free user at the limit the §8
 * toast (with JavaScript) or the limit notice (without) and no navigation.
 */
function NewProjectButton({ canCreate, where }: { canCreate: boolean; where: Where }) {
  const { t } = useTranslation('projects');
  return (
    <ButtonLink
      to={canCreate ? '/calculator' : listHref(where, { [LIMIT_NOTICE_PARAM]: '1' })}
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

function LimitNotice({ where }: { where: Where }) {
  const { t } = useTranslation('projects');
  return (
    <section role="alert" data-limit-notice className="mb-6 rounded-card border border-danger-600/40 bg-danger-50 p-4 text-danger-700">
      <h2 className="font-semibold">{t('limit.title')}</h2>
      <p className="mt-1 text-sm">{t('limit.text')}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <ButtonLink to="/premium" size="sm">
          {t('limit.upgrade')}
        </ButtonLink>
        <ButtonLink to={listHref(where)} variant="secondary" size="sm">
          {t('limit.back')}
        </ButtonLink>
      </div>
    </section>
  );
}

/** The no-JS confirmation view (`?loeschen=<id>`); with JavaScript the card opens an alert dialog instead. */
function DeleteConfirmation({ project, where }: { project: { id: string; name: string }; where: Where }) {
  const { t } = useTranslation('projects');
  return (
    <section role="alertdialog" aria-labelledby="delete-confirm-title" aria-describedby="delete-confirm-text" data-delete-confirmation className="mb-6 rounded-card border border-danger-600/40 bg-surface p-4 shadow-card">
      <DeleteForm project={project} where={where} cancel={<ButtonLink to={listHref(where)} variant="secondary" size="sm">{t('delete.cancel')}</ButtonLink>} />
    </section>
  );
}

function DeleteForm({ project, where, cancel }: { project: { id: string; name: string }; where: Where; cancel: React.ReactNode }) {
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
        <WhereFields where={where} />
        {cancel}
        <button type="submit" name="intent" value="delete" disabled={busy} className={buttonClassName({ size: 'sm', className: 'bg-danger-600 text-white hover:bg-danger-700' })}>
          <Trash2 aria-hidden="true" className="size-4" />
          {t('delete.confirm')}
        </button>
      </Form>
    </>
  );
}

function ProjectCard({ project, where }: { project: ProjectCardData; where: Where }) {
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
            <WhereFields where={where} />
            <button type="submit" name="intent" value="copy" aria-label={t('card.copyNamed', { name: project.name })} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
              <Copy aria-hidden="true" className="size-4" />
              {t('card.copy')}
            </button>
          </Form>
          <Link
            to={listHref(where, { [CONFIRM_DELETE_PARAM]: project.id })}
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
            where={where}
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

function EmptyState({ where: { q, page } }: { where: Where }) {
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

/** The list's position as hidden fields of a copy or delete form, so the redirect comes back to it. */
function WhereFields({ where }: { where: Where }) {
  return (
    <>
      <input type="hidden" name="q" value={where.q} />
      <input type="hidden" name="page" value={where.page} />
      <input type="hidden" name={SORT_PARAM} value={where.sort} />
    </>
  );
}

/**
 * Search and order in one GET form (issue 24 §4): both land in the address, so a
 * list can be bookmarked and works without JavaScript ('Suchen' applies the order
 * too); with it, choosing an order applies at once.
 */
function SearchAndSort({ where }: { where: Where }) {
  const { t } = useTranslation(['projects', 'project-tools']);
  const submit = useSubmit();
  return (
    <Form method="get" role="search" className="mb-6 flex max-w-3xl flex-wrap items-end gap-2">
      <div className="flex min-w-0 flex-[1_1_16rem] flex-col gap-1">
        <label htmlFor="project-search" className="sr-only">
          {t('search.label')}
        </label>
        <input
          id="project-search"
          type="search"
          name="q"
          defaultValue={where.q}
          maxLength={MAX_SEARCH_LENGTH}
          placeholder={t('search.placeholder')}
          className="w-full min-w-0 rounded-md border border-surface-line bg-surface px-3 py-2"
        />
      </div>
      <div className="flex min-w-0 flex-[1_1_12rem] flex-col gap-1">
        <label htmlFor="project-sort" className="text-sm text-ink-muted">
          {t('project-tools:sort.label')}
        </label>
        <select
          id="project-sort"
          name={SORT_PARAM}
          defaultValue={where.sort}
          onChange={(event) => submit(event.currentTarget.form)}
          className="w-full min-w-0 rounded-md border border-surface-line bg-surface px-3 py-2"
        >
          {PROJECT_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {t(`project-tools:sort.${sort}`)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className={buttonClassName({ variant: 'secondary' })}>
        <Search aria-hidden="true" className="size-4" />
        {t('search.submit')}
      </button>
    </Form>
  );
}

/**
 * 'Als CSV exportieren': a plain link to a resource route (no client-side navigation). The file comes as
 * an attachment, so the page stays; no `download` attribute, so when the export's rate limit sends the
 * link back to /projects with a toast, the browser shows that page instead of saving it as a file.
 */
function ExportCsvLink() {
  const { t } = useTranslation('project-tools');
  return (
    <a href="/projects.csv" data-export-csv title={t('csv.hint')} className={buttonClassName({ variant: 'secondary' })}>
      <Download aria-hidden="true" className="size-4" />
      {t('csv.button')}
    </a>
  );
}
