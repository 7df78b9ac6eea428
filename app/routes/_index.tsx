import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';

export default function Landing() {
  const { t } = useTranslation();
  return (
    <main className="mx-auto max-w-page px-4 py-12">
      <h1 className="text-3xl font-bold">{t('appName')}</h1>
      <Link to="/calculator">{t('nav.calculator')}</Link>
    </main>
  );
}
