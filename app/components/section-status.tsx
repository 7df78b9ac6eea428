import { useRouteLoaderData } from '@remix-run/react';
import { CircleAlert, CircleCheck } from 'lucide-react';
import type { ToastMessage } from '~/components/toaster';

/**
 * The flash toast, shown inside the section it belongs to (`toast.section`, the anchor the
 * redirect opens at), for browsers without scripts only: there the page opens at the
 * section, out of sight of the toast at the top, which stays hidden (toaster.tsx). With
 * scripts this stays hidden and the toast shows, so the message is never there twice.
 */
export function SectionStatus({ section, className = '' }: { section: string; className?: string }) {
  const toast = (useRouteLoaderData('root') as { toast?: ToastMessage | null } | undefined)?.toast;
  if (!toast || toast.section !== section) return null;
  const isError = toast.type === 'error';
  const Icon = isError ? CircleAlert : CircleCheck;
  return (
    <div
      role="status"
      data-section-status={section}
      className={`hidden items-start gap-3 rounded-card border px-3 py-2.5 noscript:flex ${
        isError ? 'border-danger-600/40 bg-danger-50 text-danger-700' : 'border-success-600/40 bg-success-50 text-ink'
      } ${className}`}
    >
      <Icon aria-hidden="true" className={`mt-0.5 size-5 shrink-0 ${isError ? 'text-danger-600' : 'text-success-600'}`} />
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold">{toast.title}</p>
        {toast.description ? <p className="mt-0.5 text-sm leading-snug text-ink-muted">{toast.description}</p> : null}
      </div>
    </div>
  );
}
