import { useTranslation } from 'react-i18next';

export function HelpSection() {
  const { t } = useTranslation('calculator');
  const translated: unknown = t('help.items', { returnObjects: true });
  // After a client-side navigation the namespace may still be loading: t() then gives the key, not the list.
  const items = Array.isArray(translated) ? (translated as { title: string; text: string }[]) : [];
  return (
    <section aria-labelledby="help-title" className="no-print mt-10">
      <h2 id="help-title" className="mb-4 text-xl font-semibold">
        {t('help.title')}
      </h2>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <div key={item.title} className="rounded-card border border-surface-line bg-surface p-4">
            <h3 className="font-semibold text-brand-700">{item.title}</h3>
            <p className="mt-1 text-sm text-ink-muted">{item.text}</p>
          </div>
        ))}
      </div>
    </section>
  );
}
