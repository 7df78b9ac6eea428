type Props = {
  title?: React.ReactNode;
  titleId?: string;
  children: React.ReactNode;
  className?: string;
  as?: 'section' | 'div' | 'aside';
};

/** A white panel with an optional heading; the calculator and library pages are built from these. */
export function Card({ title, titleId, children, className = '', as: Tag = 'section' }: Props) {
  return (
    <Tag aria-labelledby={title && titleId ? titleId : undefined} className={`rounded-card border border-surface-line bg-surface p-4 shadow-card sm:p-5 print:break-inside-avoid print:p-3 print:shadow-none ${className}`}>
      {title ? (
        <h2 id={titleId} className="mb-4 text-base font-semibold text-ink print:mb-2">
          {title}
        </h2>
      ) : null}
      {children}
    </Tag>
  );
}
