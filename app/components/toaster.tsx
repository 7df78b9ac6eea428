import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHydrated } from '~/utils/use-hydrated';

/** A toast as the root loader hands it over (see app/utils/toast.server.ts). */
export type ToastMessage = {
  id: string;
  type: 'success' | 'error';
  title: string;
  description: string;
  /** A link button (spec §8: 'Premium upgraden' → /premium). */
  action?: { label: string; href: string };
};

const TOAST_EVENT = 'druckpreis:toast';
const TOAST_DURATION_MS = 5000;

/**
 * Shows a toast from browser code (e.g. after a fetch that did not go through
 * an action, or when the network is down). Server code uses the flash cookie.
 */
export function showToast(toast: Omit<ToastMessage, 'id' | 'description'> & { description?: string }) {
  const detail: ToastMessage = { id: `client-${Date.now()}-${Math.random()}`, description: '', ...toast };
  window.dispatchEvent(new CustomEvent<ToastMessage>(TOAST_EVENT, { detail }));
}

/**
 * At most one toast, bottom right. Rendered on the server from the flash
 * cookie, so it shows without JavaScript (a CSS animation fades it after 5 s);
 * with JavaScript it can be closed and is removed after 5 s.
 */
export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [current, setCurrent] = useState<ToastMessage | null>(toast);

  // A new toast from the server (after an action, on navigation).
  useEffect(() => {
    if (toast) setCurrent(toast);
  }, [toast]);

  // Toasts raised in the browser.
  useEffect(() => {
    function onToast(event: Event) {
      setCurrent((event as CustomEvent<ToastMessage>).detail);
    }
    window.addEventListener(TOAST_EVENT, onToast);
    return () => window.removeEventListener(TOAST_EVENT, onToast);
  }, []);

  useEffect(() => {
    if (!current) return;
    const timer = window.setTimeout(() => setCurrent(null), TOAST_DURATION_MS + 300);
    return () => window.clearTimeout(timer);
  }, [current]);

  const isError = current?.type === 'error';
  const Icon = isError ? CircleAlert : CircleCheck;

  return (
    <section aria-label={t('toast.region')} className="no-print pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex justify-end p-4 sm:bottom-4 sm:right-4 sm:left-auto">
      {/* The live region stays in the document so screen readers announce toasts added later. */}
      <div role="status" aria-live="polite" aria-atomic="true" className="w-full sm:w-96">
        {current ? (
          <div
            key={current.id}
            data-toast={current.type}
            className={`toast-auto-hide pointer-events-auto flex items-start gap-3 rounded-card border p-4 shadow-lg ${
              isError ? 'border-danger-600/40 bg-danger-50 text-danger-700' : 'border-success-600/40 bg-success-50 text-ink'
            }`}
          >
            <Icon aria-hidden="true" className={`mt-0.5 size-5 shrink-0 ${isError ? 'text-danger-600' : 'text-success-600'}`} />
            <div className="min-w-0 flex-1">
              <p className="font-semibold">{current.title}</p>
              {current.description ? <p className="mt-1 text-sm text-ink-muted">{current.description}</p> : null}
              {current.action ? (
                <a
                  href={current.action.href}
                  data-toast-action
                  className="mt-2 inline-flex rounded-md bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700"
                >
                  {current.action.label}
                </a>
              ) : null}
            </div>
            {hydrated ? (
              <button
                type="button"
                onClick={() => setCurrent(null)}
                className="-m-1 rounded-md p-1 text-ink-muted hover:bg-surface-subtle hover:text-ink"
              >
                <X aria-hidden="true" className="size-4" />
                <span className="sr-only">{t('toast.close')}</span>
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </section>
  );
}
