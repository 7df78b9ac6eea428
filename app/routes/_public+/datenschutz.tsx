import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { withOperator } from '~/components/operator-details';
import { getPublicOperator } from '~/models/operator.server';
import { getRequestContext } from '~/services/request-context.server';
import { useTranslation } from 'react-i18next';
import { LegalPage, listOf, type LegalSection } from '~/components/legal-page';
import { getServerT } from '~/i18n.server';
import { publicPageHeaders } from '~/server/http-cache';

export const handle = { i18n: ['legal', 'admin'] };
// Shared for visitors (sessions are made private by the server): app/server/http-cache.ts.
export const headers = publicPageHeaders;

// The operator's details come from the admin settings; the shared copy lives 60 s, so a change shows within a minute.
export async function loader(args: LoaderFunctionArgs) {
  const t = await getServerT('legal');
  const operator = await getPublicOperator(await getRequestContext(args));
  return { title: t('privacy.meta.title'), description: t('privacy.meta.description'), operator };
}

export default function PrivacyPolicy() {
  const { t } = useTranslation('legal');
  const { operator } = useLoaderData<typeof loader>();
  return (
    <LegalPage
      title={t('privacy.title')}
      updated={t('privacy.updated')}
      lead={t('privacy.lead')}
      tocLabel={t('tocLabel')}
      sections={withOperator(listOf<LegalSection>(t('privacy.sections', { returnObjects: true })), operator, t)}
    />
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: 'description', content: data.description }] : [];
