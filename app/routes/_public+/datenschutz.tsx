import type { MetaFunction } from '@remix-run/node';
import { useTranslation } from 'react-i18next';
import { LegalPage, listOf, type LegalSection } from '~/components/legal-page';
import { getServerT } from '~/i18n.server';
import { publicPageHeaders } from '~/server/http-cache';

export const handle = { i18n: ['legal'] };
// Shared for visitors (sessions are made private by the server): app/server/http-cache.ts.
export const headers = publicPageHeaders;

export async function loader() {
  const t = await getServerT('legal');
  return { title: t('privacy.meta.title'), description: t('privacy.meta.description') };
}

export default function PrivacyPolicy() {
  const { t } = useTranslation('legal');
  return (
    <LegalPage
      title={t('privacy.title')}
      updated={t('privacy.updated')}
      lead={t('privacy.lead')}
      tocLabel={t('tocLabel')}
      sections={listOf<LegalSection>(t('privacy.sections', { returnObjects: true }))}
    />
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: 'description', content: data.description }] : [];
