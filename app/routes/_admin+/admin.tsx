import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { House, LogOut, ShieldX } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SettingsForm } from '~/components/admin/settings-form';
import { StatusTab, type StatusTabData } from '~/components/admin/status-tab';
import { UsersTab, type UsersTabData } from '~/components/admin/users-tab';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { showToast } from '~/components/toaster';
import { ButtonLink, buttonClassName } from '~/components/ui/button-link';
import { inputClassName } from '~/components/ui/field';
import { getServerT } from '~/i18n.server';
import { ADMIN_TABS, isSettingsTab, settingsSchemas, SETTINGS_TAB_GROUPS, testMailSchema, type AdminTab } from '~/domain/admin-schemas';
import {
  getAdminSettings,
  getAdminStatus,
  getSettingsSource,
  listAuditLog,
  saveSettings,
  sendTestMail,
  settingsMessageKey,
  testSmtpConnection,
} from '~/models/admin.server';
import { deleteUserAsAdmin, listUsers } from '~/models/admin-users.server';
import { getRequestContext } from '~/services/auth.server';
import { isAdmin } from '~/domain/permissions';
import { readFormData } from '~/web/form-data.server';
import { parseSubmission } from '~/web/form-submission.server';
import { pageDataResult, pageResult, pageValue, toastResult } from '~/web/result-response.server';
import { useHydrated } from '~/lib/use-hydrated';

export const handle = { i18n: ['admin'] };

const SECRET_FIELD_NAMES = ['secretKey', 'webhookSecret', 'password'];

function tabOf(url: URL): AdminTab {
  const tab = url.searchParams.get('tab');
  return (ADMIN_TABS as readonly string[]).includes(tab ?? '') ? (tab as AdminTab) : 'status';
}

function pageOf(url: URL): number {
  const page = Number(url.searchParams.get('seite'));
  return Number.isInteger(page) && page > 0 ? Math.min(page, 100_000) : 1;
}

/**
 * The admin area (spec §2, issue 20). Visitors go to /api/login; signed-in
 * non-admins get the access-denied card with the 'Zugriff verweigert' toast
 * (status 403). The operations check the admin right again.
 */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await getRequestContext(args);
  const t = await getServerT('admin');
  const title = t('meta');
  if (!ctx.user) throw redirect('/api/login');
  if (!isAdmin(ctx.user)) {
    return data(
      {
        allowed: false as const,
        title,
        pageToast: { id: 'access-denied', type: 'error' as const, title: t('accessDenied.title'), description: t('accessDenied.text') },
      },
      { status: 403 },
    );
  }
  const url = new URL(args.request.url);
  const tab = tabOf(url);
  const base = { allowed: true as const, title, tab, currentUserId: ctx.user.id };
  if (isSettingsTab(tab)) {
    const [settings, source] = await Promise.all([getAdminSettings(ctx), getSettingsSource(ctx, tab)]);
    return { ...base, settings: pageValue(settings)[SETTINGS_TAB_GROUPS[tab]], source: pageValue(source) };
  }
  if (tab === 'users') {
    const users = pageValue(await listUsers(ctx, { search: url.searchParams.get('q') ?? '', page: pageOf(url) }));
    return { ...base, users: users as UsersTabData, confirmId: url.searchParams.get('loeschen') };
  }
  const [status, audit] = await Promise.all([getAdminStatus(ctx), listAuditLog(ctx, { page: pageOf(url) })]);
  return { ...base, status: { status: pageValue(status), audit: pageValue(audit) } as StatusTabData };
}

export async function action(args: ActionFunctionArgs) {
  const ctx = await getRequestContext(args);
  if (!ctx.user) throw redirect('/api/login');
  const t = await getServerT(['admin', 'auth']);
  if (!isAdmin(ctx.user)) {
    return data({ intent: 'denied' as const, message: t('admin:accessDenied.text') }, { status: 403 });
  }
  const url = new URL(args.request.url);
  const formData = await readFormData(args.request);
  const intent = formData.get('intent');
  const tab = formData.get('tab') ?? tabOf(url);

  if (intent === 'save' && isSettingsTab(tab)) {
    const submission = parseSubmission(formData, settingsSchemas[tab]);
    const key = settingsMessageKey(tab);
    if (submission.status !== 'success') {
      return data({ intent: 'save' as const, tab, result: submission.reply({ hideFields: SECRET_FIELD_NAMES }) }, { status: 400 });
    }
    return pageResult(submission, await saveSettings(ctx, tab, submission.value as never), () => ({
      redirectTo: `/admin?tab=${tab}`,
      toast: { type: 'success', title: t('admin:saved.title'), description: t(`admin:saved.${key}`) },
    }), { hideFields: SECRET_FIELD_NAMES, extra: { intent: 'save' as const, tab } });
  }

  if (intent === 'smtpTest') {
    const port = Number(String(formData.get('port') ?? '').trim());
    const result = await testSmtpConnection(ctx, {
      host: String(formData.get('host') ?? ''),
      port: Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined,
      secure: formData.get('secure') === 'on',
      user: String(formData.get('user') ?? ''),
      password: String(formData.get('password') ?? ''),
      clearPassword: formData.get('clearPassword') === 'on',
    });
    return pageDataResult(result, (answer) => {
      // What was typed comes back into the form (a test must not cost the admin their input); the
      // password never does: a blank one means the saved one for the saved server.
      return data(
        {
          intent: 'smtpTest' as const,
          entered: enteredFields(formData),
          ok: answer.reachable,
          title: t(answer.reachable ? 'admin:smtp.reachableTitle' : 'admin:smtp.failedTitle'),
          message: answer.reachable ? t(answer.message) : answer.error || t(answer.message === 'admin:smtp.failed' ? 'admin:smtp.failed' : answer.message),
        },
        { status: answer.reachable ? 200 : 422 },
      );
    }, {
      // A refusal (the hourly cap) shows where the answer would, with what was typed kept.
      onFailure: (message, status) => data(testFailure('smtpTest', t('admin:smtp.failedTitle'), message, enteredFields(formData)), { status }),
    });
  }

  if (intent === 'sendTest') {
    const parsed = testMailSchema.safeParse({ testEmail: String(formData.get('testEmail') ?? '') });
    if (!parsed.success) {
      return data({ intent: 'sendTest' as const, ok: false, title: t('admin:smtp.sendFailedTitle'), message: t('admin:errors.testEmailInvalid') }, { status: 400 });
    }
    return pageDataResult(await sendTestMail(ctx, parsed.data), (sent) => data(
      {
        intent: 'sendTest' as const,
        ok: sent.sent,
        title: t(sent.sent ? 'admin:smtp.sentTitle' : 'admin:smtp.sendFailedTitle'),
        message: sent.sent ? t('admin:smtp.sent', { email: parsed.data.testEmail }) : sent.error || t('admin:smtp.sendFailed'),
      },
      { status: sent.sent ? 200 : 422 },
    ), { onFailure: (message, status) => data(testFailure('sendTest', t('admin:smtp.sendFailedTitle'), message), { status }) });
  }

  if (intent === 'deleteUser') {
    const back = new URL(url);
    back.searchParams.delete('loeschen');
    back.searchParams.set('tab', 'users');
    const redirectTo = `${back.pathname}${back.search}`;
    return toastResult(await deleteUserAsAdmin(ctx, { id: String(formData.get('id') ?? '') }), (deleted) => ({
      redirectTo,
      toast: { type: 'success', title: t('admin:users.deletedTitle'), description: t('admin:users.deleted', { email: deleted.email }) },
    }), { redirectTo, title: t('admin:users.deleteFailedTitle'), notFoundText: t('admin:users.deleteFailed') });
  }

  throw new Response(t('auth:messages.invalidRequest'), { status: 400 });
}

/** What was typed on the e-mail tab, back into the form after a test; never the password. */
function enteredFields(formData: FormData) {
  const entered = Object.fromEntries(
    (['host', 'port', 'user', 'fromEmail', 'fromName', 'verificationSubject', 'verificationUrl'] as const).map((name) => [name, String(formData.get(name) ?? '').slice(0, 500)]),
  );
  return { ...entered, secure: formData.get('secure') === 'on' };
}

/** A test that did not run (refused, e.g. over the hourly cap): its answer box says why. */
function testFailure<I extends 'smtpTest' | 'sendTest'>(intent: I, title: string, message: string, entered?: ReturnType<typeof enteredFields>) {
  return { intent, ok: false, title, message, ...(entered ? { entered } : {}) };
}

export default function AdminPage() {
  const loaderData = useLoaderData<typeof loader>();
  const { t } = useTranslation('admin');
  if (!loaderData.allowed) return <AccessDenied />;
  const { tab } = loaderData;
  return (
    <main className="mx-auto max-w-page px-4 py-6 sm:py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold sm:text-3xl">{t('title')}</h1>
        <nav aria-label={t('nav.label')} className="flex flex-wrap items-center gap-2 text-sm">
          <Link to="/" className={buttonClassName({ variant: 'ghost', size: 'sm' })}>
            {t('nav.home')}
          </Link>
          <Link to="/projects" className={buttonClassName({ variant: 'ghost', size: 'sm' })}>
            {t('nav.projects')}
          </Link>
          <Link to="/premium" className={buttonClassName({ variant: 'ghost', size: 'sm' })}>
            {t('nav.premium')}
          </Link>
          <Form method="post" action="/logout">
            <button type="submit" className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
              <LogOut aria-hidden="true" className="size-4" />
              {t('nav.logout')}
            </button>
          </Form>
        </nav>
      </div>
      <nav aria-label={t('tabs.label')} className="mt-6 -mx-4 overflow-x-auto px-4">
        <ul className="flex min-w-max gap-1 border-b border-surface-line">
          {ADMIN_TABS.map((name) => (
            <li key={name}>
              <Link
                to={`/admin?tab=${name}`}
                aria-current={name === tab ? 'page' : undefined}
                className={`-mb-px block rounded-t-md border-b-2 px-3 py-2 text-sm font-medium ${
                  name === tab ? 'border-brand-600 text-brand-700' : 'border-transparent text-ink-muted hover:text-ink'
                }`}
              >
                {t(`tabs.${name}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="admin-tab-title" className="mt-6" data-admin-tab={tab}>
        <h2 id="admin-tab-title" className="mb-4 text-xl font-semibold">
          {t(`tabs.${tab}`)}
        </h2>
        <TabContent />
      </section>
    </main>
  );
}

function TabContent() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { key } = useLocation();
  if (!loaderData.allowed) return null;
  const { tab } = loaderData;
  if (isSettingsTab(tab) && 'settings' in loaderData) {
    const lastResult = actionData && actionData.intent === 'save' && actionData.tab === tab ? actionData.result : null;
    const tested = actionData && actionData.intent === 'smtpTest' && tab === 'email' ? actionData.entered : null;
    return (
      <div className="rounded-card border border-surface-line bg-surface p-4 shadow-card sm:p-6">
        {loaderData.source === 'env' ? <EnvNote tab={tab} /> : null}
        <SettingsForm key={`${tab}-${key}${tested ? '-tested' : ''}`} tab={tab} values={tested ? { ...loaderData.settings, ...tested } : loaderData.settings} lastResult={lastResult}>
          {tab === 'email' ? <SmtpTest /> : null}
        </SettingsForm>
        {tab === 'email' ? <TestMail /> : null}
      </div>
    );
  }
  if (tab === 'users' && 'users' in loaderData) {
    return <UsersTab data={loaderData.users} currentUserId={loaderData.currentUserId} confirmId={loaderData.confirmId} />;
  }
  if ('status' in loaderData) return <StatusTab data={loaderData.status} />;
  return null;
}

/** The environment stands in for this group until it is saved here: the tab says so, and what saving does. */
function EnvNote({ tab }: { tab: string }) {
  const { t } = useTranslation('admin');
  return (
    <p role="note" data-env-note className="mb-5 rounded-md border border-brand-600/30 bg-brand-50 px-3 py-2.5 text-sm text-ink">
      {t(`envNote.${tab}`)}
    </p>
  );
}

type ResultData = { intent: string; ok?: boolean; title?: string; message?: string };

/** The answer of a test, on the tab (without JavaScript that is all) and as a toast with it. */
function useTestResult(intent: 'smtpTest' | 'sendTest') {
  const actionData = useActionData<typeof action>() as ResultData | undefined;
  const result = actionData?.intent === intent ? actionData : null;
  useEffect(() => {
    if (result?.title) showToast({ type: result.ok ? 'success' : 'error', title: result.title, description: result.message });
  }, [result]);
  return result;
}

function ResultBox({ result, testId }: { result: ResultData | null; testId: string }) {
  if (!result) return null;
  return (
    <div
      role={result.ok ? 'status' : 'alert'}
      data-testid={testId}
      className={`mt-3 rounded-md border px-3 py-2.5 text-sm ${result.ok ? 'border-brand-600/40 bg-brand-50 text-brand-700' : 'border-danger-600/40 bg-danger-50 text-danger-700'}`}
    >
      <p className="font-semibold">{result.title}</p>
      <p className="break-words">{result.message}</p>
    </div>
  );
}

function SmtpTest() {
  const { t } = useTranslation('admin');
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'smtpTest';
  const result = useTestResult('smtpTest');
  return (
    <div className="border-t border-surface-line pt-5">
      <h3 className="font-semibold text-ink">{t('smtp.title')}</h3>
      <p className="mt-1 text-sm text-ink-muted">{t('smtp.intro')}</p>
      <button type="submit" name="intent" value="smtpTest" formNoValidate disabled={pending} className={buttonClassName({ variant: 'secondary', className: 'mt-3' })}>
        {pending ? t('smtp.testing') : t('smtp.test')}
      </button>
      <ResultBox result={result} testId="smtp-test-result" />
    </div>
  );
}

function TestMail() {
  const { t } = useTranslation('admin');
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'sendTest';
  const result = useTestResult('sendTest');
  const [address, setAddress] = useState('');
  const hydrated = useHydrated();
  return (
    <Form method="post" action="/admin?tab=email" className="mt-6 border-t border-surface-line pt-5" data-testid="test-mail-form">
      <h3 className="font-semibold text-ink">{t('smtp.sendTitle')}</h3>
      <input type="hidden" name="intent" value="sendTest" />
      <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor="test-email" className="mb-1.5 block text-sm font-medium text-ink">
            {t('fields.testEmail')}
          </label>
          <input
            id="test-email"
            name="testEmail"
            type="email"
            required
            maxLength={254}
            value={address}
            onChange={(event) => setAddress(event.currentTarget.value)}
            className={inputClassName}
          />
        </div>
        {/* Disabled until the address has an @ (spec §5); without scripts the server checks it. */}
        <button type="submit" disabled={pending || (hydrated && !address.includes('@'))} data-needs-at className={buttonClassName({ variant: 'secondary' })}>
          {pending ? t('smtp.sending') : t('smtp.send')}
        </button>
      </div>
      <ResultBox result={result} testId="test-mail-result" />
    </Form>
  );
}

function AccessDenied() {
  const { t } = useTranslation('admin');
  const { t: tc } = useTranslation('common');
  return (
    <main className="mx-auto max-w-page px-4 py-8 sm:py-12">
      <section
        data-access-denied
        className="mx-auto max-w-md rounded-card border border-danger-600/30 bg-surface p-6 text-center shadow-card sm:p-8"
      >
        <span aria-hidden="true" className="mx-auto flex size-14 items-center justify-center rounded-full bg-danger-50 text-danger-700">
          <ShieldX className="size-7" />
        </span>
        <h1 className="mt-4 text-xl font-bold text-ink">{t('accessDenied.title')}</h1>
        <p className="mt-2 text-ink-muted">{t('accessDenied.text')}</p>
        <ButtonLink to="/" variant="secondary" className="mt-6">
          <House aria-hidden="true" className="size-4" />
          {tc('accessDenied.back')}
        </ButtonLink>
      </section>
    </main>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
