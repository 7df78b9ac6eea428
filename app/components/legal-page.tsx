import { Link } from '@remix-run/react';
import { Fragment, type ReactNode } from 'react';

/**
 * Long legal texts live in the locale JSON as data, not markup:
 * a string is a paragraph, `{ heading }` a sub-heading, `{ list }` a bullet
 * list, `{ lines }` an address block. Inside any text `[label](href)` becomes
 * a link, so e-mail addresses and URLs stay clickable without HTML in JSON.
 */
export type LegalBlock = string | { heading: string } | { list: string[] } | { lines: string[] };

export type LegalSection = { id: string; title: string; content: LegalBlock[] };

/**
 * `t(key, { returnObjects: true })` as an array. While a namespace is still
 * loading after a client-side navigation, i18next returns the key string.
 */
export function listOf<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

type LegalPageProps = {
  title: string;
  /** e.g. 'Stand: 28. Januar 2025' */
  updated?: string;
  lead?: string;
  tocLabel: string;
  sections: LegalSection[];
};

export function LegalPage({ title, updated, lead, tocLabel, sections }: LegalPageProps) {
  return (
    <main className="mx-auto max-w-page px-4 py-10 sm:py-14">
      <header className="max-w-3xl">
        <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-4xl">{title}</h1>
        {updated ? <p className="mt-2 text-sm text-ink-muted">{updated}</p> : null}
        {lead ? <p className="mt-4 text-lg text-ink-muted">{renderInline(lead)}</p> : null}
      </header>

      <div className="mt-8 grid gap-8 lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-12">
        <nav aria-labelledby="toc-heading" className="lg:sticky lg:top-6 lg:self-start">
          <div className="rounded-card border border-surface-line bg-surface p-4 shadow-card">
            <h2 id="toc-heading" className="text-sm font-semibold uppercase tracking-wide text-ink-muted">
              {tocLabel}
            </h2>
            <ol className="mt-3 space-y-1 text-sm">
              {sections.map((section, index) => (
                <li key={section.id}>
                  <a
                    href={`#${section.id}`}
                    className="flex gap-2 rounded px-2 py-1 text-ink hover:bg-brand-50 hover:text-brand-700"
                  >
                    <span className="w-6 shrink-0 text-right tabular-nums text-ink-muted">{index + 1}.</span>
                    <span>{section.title}</span>
                  </a>
                </li>
              ))}
            </ol>
          </div>
        </nav>

        <div className="max-w-3xl min-w-0 space-y-10 rounded-card border border-surface-line bg-surface p-5 shadow-card sm:p-8">
          {sections.map((section, index) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="scroll-mt-6">
              <h2 id={`${section.id}-title`} className="text-xl font-semibold text-ink sm:text-2xl">
                <span className="mr-2 tabular-nums text-brand-600">{index + 1}.</span>
                {section.title}
              </h2>
              <div className="mt-4 space-y-4 leading-relaxed text-ink">{section.content.map(renderBlock)}</div>
            </section>
          ))}
        </div>
      </div>
    </main>
  );
}

function renderBlock(block: LegalBlock, index: number) {
  if (typeof block === 'string') return <p key={index}>{renderInline(block)}</p>;
  if ('heading' in block) {
    return (
      <h3 key={index} className="pt-2 text-lg font-semibold text-ink">
        {block.heading}
      </h3>
    );
  }
  if ('list' in block) {
    return (
      <ul key={index} className="list-disc space-y-1.5 pl-6 marker:text-brand-600">
        {block.list.map((item, i) => (
          <li key={i}>{renderInline(item)}</li>
        ))}
      </ul>
    );
  }
  return (
    <address key={index} className="not-italic">
      {block.lines.map((line, i) => (
        <Fragment key={i}>
          {i > 0 ? <br /> : null}
          {renderInline(line)}
        </Fragment>
      ))}
    </address>
  );
}

const LINK_PATTERN = /\[([^\]]+)\]\(([^)\s]+)\)/g;
const linkClass = 'font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900';

/** Turns `[label](href)` inside a translated string into links; the rest stays text. */
export function renderInline(text: string): ReactNode {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK_PATTERN)) {
    const [whole, label, href] = match;
    const start = match.index ?? 0;
    if (start > last) parts.push(text.slice(last, start));
    parts.push(
      href.startsWith('/') ? (
        <Link key={start} to={href} className={linkClass}>
          {label}
        </Link>
      ) : (
        <a
          key={start}
          href={href}
          className={`${linkClass} break-words`}
          {...(href.startsWith('http') ? { rel: 'noopener noreferrer' } : {})}
        >
          {label}
        </a>
      ),
    );
    last = start + whole.length;
  }
  if (last === 0) return text;
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
