import { MAX_SEARCH_LENGTH, projectListHref, readProjectSort, SORT_PARAM, type ProjectSort } from '../domain/projects';
import type { Result } from '../domain/result';
import { getServerT } from '../i18n.server';
import { PROJECT_LIMIT_CODE } from '../models/project-quota.server';
import { redirectWithToast, type ToastInput } from './toast.server';

/**
 * The project list's actions (copy, delete), read and answered: each outcome
 * is a redirect back to the list (search, order and page kept) with its §8 toast, so
 * it shows without JavaScript too.
 */

export type ProjectListIntent = 'copy' | 'delete';

export type ProjectListPost = { intent: ProjectListIntent | null; id: FormDataEntryValue | null; q: string; page: number; sort: ProjectSort };

export function readProjectListPost(form: FormData): ProjectListPost {
  const intent = form.get('intent');
  return {
    intent: intent === 'copy' || intent === 'delete' ? intent : null,
    id: form.get('id'),
    q: String(form.get('q') ?? '').slice(0, MAX_SEARCH_LENGTH),
    page: Number.parseInt(String(form.get('page') ?? '1'), 10) || 1,
    sort: readProjectSort(form.get(SORT_PARAM)),
  };
}

/** The toast texts of each action (namespace `projects`); an unknown intent gets the general error. */
const TOASTS = {
  copy: { ok: 'copied', failed: 'copyError' },
  delete: { ok: 'deleted', failed: 'deleteError' },
  unknown: { ok: 'saved', failed: 'saveError' },
} as const;

/** The redirect with the toast of an action's result; a copy opens the first page, where the newest project is. */
export async function projectListReply(post: ProjectListPost, result: Result<{ name: string }>): Promise<Response> {
  const t = await getServerT('projects');
  const texts = TOASTS[post.intent ?? 'unknown'];
  let toast: ToastInput;
  let page = post.page;
  if (result.kind === 'ok') {
    toast = { title: t(`toast.${texts.ok}`), description: t(`toast.${texts.ok}Text`, { name: result.value.name }) };
    if (post.intent === 'copy') page = 1;
  } else if (result.kind === 'forbidden' && result.details?.code === PROJECT_LIMIT_CODE) {
    toast = { type: 'error', title: t('limit.title'), description: t('limit.text'), action: { label: t('limit.upgrade'), href: '/premium' } };
  } else {
    toast = { type: 'error', title: t(`toast.${texts.failed}`), description: t(`toast.${texts.failed}Text`) };
  }
  return redirectWithToast(projectListHref(post.q, page, {}, post.sort), toast);
}
