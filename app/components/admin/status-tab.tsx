import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Pagination } from '~/components/ui/pagination';
import type { AdminStatus, AuditPage } from '~/domain/admin-views';

export type StatusTabData = { status: AdminStatus; audit: AuditPage };

const dateTime = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' });
const ADS_KEYS = { on: 'On', test: 'Test', off: 'Off', missing: 'Missing' } as const;
const cardClass = 'rounded-card border border-surface-line bg-surface p-4 shadow-card';

function Figure({ label, value, detail, testId }: { label: string; value: string | number; detail?: React.ReactNode; testId?: string }) {
  return (
    <div className={cardClass} data-testid={testId}>
      <p className="text-sm text-ink-muted">{label}</p>
      <p className="mt-1 text-2xl font-bold tabular-nums text-ink">{value}</p>
      {detail ? <div className="mt-1 text-xs text-ink-muted">{detail}</div> : null}
    </div>
  );
}

export function StatusTab({ data }: { data: StatusTabData }) {
  const { t } = useTranslation('admin');
  const { status, audit } = data;
  const warnings: string[] = [];
  for (const problem of status.settingsProblems) {
    warnings.push(t('status.undecryptable', { group: t(`groups.${problem.group}`), fields: problem.fields.map((field) => t(`fields.${field}`)).join(', ') }));
  }
  if (status.operatorMissing) warnings.push(t('status.operatorMissing'));
  if (!status.configured.contact) warnings.push(t('status.noRecipient'));
  const recipient = status.configured.contact;
  const recipientText = recipient
    ? t(recipient.source === 'settings' ? 'status.recipientSettings' : recipient.source === 'env' ? 'status.recipientEnv' : 'status.recipientAdmin', { address: recipient.address })
    : t('status.noRecipient');
  const mailText =
    status.configured.mail === 'file' ? t('status.mailFile') : status.configured.mail === 'env' ? t('status.mailEnv') : t('status.mailSettings');
  // Where each group's values come from: the admin settings or the environment (which applies only while the group is not saved here).
  const source = (kind: 'settings' | 'env' | 'none', tab: string, variables: string) =>
    t('status.source', {
      source:
        kind === 'settings'
          ? t('status.sourceSettings', { tab: t(`tabs.${tab}`) })
          : kind === 'env'
            ? t('status.sourceEnv', { variables, tab: t(`tabs.${tab}`) })
            : t('status.sourceNone', { variables }),
    });
  const mailSource =
    status.configured.mail === 'settings'
      ? t('status.sourceSettings', { tab: t('tabs.email') })
      : status.configured.mail === 'env'
        ? t('status.sourceMailEnv', { tab: t('tabs.email') })
        : t('status.sourceMailNone');
  const contactSource = !recipient
    ? null
    : recipient.source === 'settings'
      ? t('status.sourceSettings', { tab: t('tabs.contact') })
      : recipient.source === 'env'
        ? t('status.sourceContactEnv', { tab: t('tabs.contact') })
        : t('status.sourceContactAdmin');
  const services: { key: string; label: string; value: string; good: boolean | null; source?: string | null }[] = [
    {
      key: 'payment',
      label: t('status.payment'),
      value: status.configured.payment ? t('status.configured') : t('status.notConfigured'),
      good: status.configured.payment,
      source: source(status.configured.paymentSource, 'stripe', 'STRIPE_*'),
    },
    {
      key: 'ads',
      label: t('status.ads'),
      value: t(`status.ads${ADS_KEYS[status.configured.ads]}`),
      good: status.configured.ads !== 'missing',
      source: source(status.configured.adsSource, 'google-ads', 'GOOGLE_ADS_*'),
    },
    {
      key: 'mail',
      label: t('status.mail'),
      value: `${mailText}${status.configured.mailWorking === true ? ` – ${t('status.mailWorking')}` : status.configured.mailWorking === false ? ` – ${t('status.mailFailing')}` : ''}`,
      good: status.configured.mail !== 'file' && status.configured.mailWorking !== false,
      source: t('status.source', { source: mailSource }),
    },
    {
      key: 'contact',
      label: t('status.contactRecipient'),
      value: recipientText,
      good: Boolean(recipient),
      source: contactSource ? t('status.source', { source: contactSource }) : null,
    },
    {
      key: 'database',
      label: t('status.database'),
      value: status.database.ok ? t('status.healthy', { ms: status.database.latencyMs }) : t('status.unhealthy'),
      good: status.database.ok,
    },
    {
      key: 'storage',
      label: `${t('status.storage')} (${status.storage.kind === 's3' ? t('status.storageS3') : t('status.storageLocal')})`,
      value: status.storage.ok ? t('status.healthyPlain') : `${t('status.unhealthy')}${status.storage.error ? `: ${status.storage.error}` : ''}`,
      good: status.storage.ok,
    },
    { key: 'version', label: t('status.version'), value: status.version, good: null },
  ];

  return (
    <div className="space-y-6">
      <section aria-labelledby="warnings-title" className={cardClass} data-testid="status-warnings">
        <h3 id="warnings-title" className="font-semibold text-ink">
          {t('status.warnings')}
        </h3>
        {warnings.length === 0 ? (
          <p className="mt-2 text-sm text-ink-muted">{t('status.noWarnings')}</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {warnings.map((warning) => (
              <li key={warning} className="flex gap-2 text-sm text-danger-700">
                <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                <span>{warning}</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Figure testId="status-users" label={t('status.users')} value={status.users.total} detail={t('status.usersDetail', status.users)} />
        <Figure testId="status-projects" label={t('status.projects')} value={status.projects} />
        <Figure
          testId="status-outbox"
          label={t('status.outbox')}
          value={status.outbox.pending}
          detail={
            <>
              <p>{t('status.outboxDetail', status.outbox)}</p>
              <p>{status.outbox.lastSentAt ? t('status.lastSent', { date: dateTime.format(new Date(status.outbox.lastSentAt)) }) : t('status.neverSent')}</p>
              {status.outbox.lastError ? <p className="break-words text-danger-700">{t('status.lastError', { error: status.outbox.lastError })}</p> : null}
            </>
          }
        />
        <Figure testId="status-contact" label={t('status.contact')} value={status.contact.total} detail={t('status.contactDetail', status.contact)} />
      </div>

      <section aria-labelledby="services-title" className={cardClass}>
        <h3 id="services-title" className="font-semibold text-ink">
          {t('status.services')}
        </h3>
        <dl className="mt-3 divide-y divide-surface-line text-sm">
          {services.map(({ key, label, value, good, source: from }) => (
            <div key={key} data-service={key} className="flex flex-col gap-0.5 py-2 sm:flex-row sm:justify-between sm:gap-4">
              <dt className="text-ink-muted">{label}</dt>
              <dd className="sm:text-right">
                <span className={good === false ? 'text-danger-700' : good ? 'text-brand-700' : 'text-ink'}>{value}</span>
                {from ? <span className="block text-xs text-ink-muted">{from}</span> : null}
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="audit-title" className={cardClass} data-testid="audit-log">
        <h3 id="audit-title" className="font-semibold text-ink">
          {t('status.audit')}
        </h3>
        {audit.entries.length === 0 ? (
          <p className="mt-2 text-sm text-ink-muted">{t('status.auditEmpty')}</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="min-w-full text-left text-sm">
              <thead className="text-xs uppercase tracking-wide text-ink-muted">
                <tr>
                  <th scope="col" className="py-1 pr-3">{t('status.auditWhen')}</th>
                  <th scope="col" className="py-1 pr-3">{t('status.auditWho')}</th>
                  <th scope="col" className="py-1 pr-3">{t('status.auditWhat')}</th>
                  <th scope="col" className="py-1">{t('status.auditTarget')}</th>
                </tr>
              </thead>
              <tbody>
                {audit.entries.map((entry) => (
                  <tr key={entry.id} className="border-t border-surface-line">
                    <td className="whitespace-nowrap py-1.5 pr-3">{dateTime.format(new Date(entry.createdAt))}</td>
                    <td className="break-all py-1.5 pr-3">{entry.actorEmail}</td>
                    <td className="py-1.5 pr-3">{t(`auditActions.${entry.action}`, { defaultValue: entry.action })}</td>
                    <td className="break-all py-1.5">{entry.target ? t(`groups.${entry.target}`, { defaultValue: entry.target }) : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination page={audit.page} hasNext={audit.page * audit.pageSize < audit.total} href={(page) => `/admin?tab=status&seite=${page}`} />
      </section>
    </div>
  );
}
