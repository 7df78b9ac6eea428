import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useLoaderData, useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ProjectList } from '~/components/projects/project-list';
import { SignInRequired } from '~/components/sign-in-required';
import { getServerT } from '~/i18n.server';
import { productImageUrl } from '~/domain/product-images';
import { projectUsage, usageAllowsNew } from '~/models/project-quota.server';
import {
  copyProject,
  deleteProject,
  getProject,
  listedPrices,
  listProjects,
} from '~/models/projects.server';
import { CONFIRM_DELETE_PARAM, LIMIT_NOTICE_PARAM, readProjectSort, SORT_PARAM } from '~/domain/projects';
import { invalid, valueOrNull } from '~/domain/result';
import { getUserContext, requireUserContext } from '~/services/auth.server';
import { formatEuro } from '~/lib/number';
import { readFormData } from '~/web/form-data.server';
import { projectListReply, readProjectListPost } from '~/web/project-list.server';

export const handle = { i18n: ['projects', 'project-tools'] };

const dateFormat = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeZone: 'Europe/Berlin' });

export async function loader(args: LoaderFunctionArgs) {
  const t = await getServerT('projects');
  const meta = { title: t('meta.title'), description: t('meta.description') };
  const ctx = await getUserContext(args);
  // Spec §2/§6: visitors get the sign-in-required card (and no database query).
  if (!ctx) return { signedIn: false as const, meta };
  const params = new URL(args.request.url).searchParams;
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  const list = await listProjects(ctx, { q: params.get('q') ?? '', page, sort: readProjectSort(params.get(SORT_PARAM)) });
  const usage = await projectUsage(ctx);
  const canCreate = usageAllowsNew(usage);
  // Without JavaScript the delete button leads here first: a confirmation view (spec §2: it cannot be undone).
  const deleteId = params.get(CONFIRM_DELETE_PARAM);
  const toDelete = deleteId ? valueOrNull(await getProject(ctx, deleteId)) : null;
  return {
    signedIn: true as const,
    meta,
    q: list.q,
    page: list.page,
    sort: list.sort,
    hasNext: list.hasNext,
    canCreate,
    usage,
    showLimit: params.has(LIMIT_NOTICE_PARAM) && !canCreate,
    confirmDelete: toDelete ? { id: toDelete.id, name: toDelete.name } : null,
    projects: list.items.map((project) => {
      const price = listedPrices(project).minimumPriceWithVat;
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
  const post = readProjectListPost(await readFormData(args.request));
  const ctx = await requireUserContext(args, { redirectTo: '/projects' });
  switch (post.intent) {
    case 'copy':
      return projectListReply(post, await copyProject(ctx, post.id));
    case 'delete':
      return projectListReply(post, await deleteProject(ctx, post.id));
    case null:
      return projectListReply(post, invalid('projects:toast.saveErrorText'));
  }
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
  return <ProjectList {...data} />;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.meta.title }, { name: 'description', content: data.meta.description }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
