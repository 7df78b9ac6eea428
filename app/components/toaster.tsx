import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHydrated } from '~/lib/use-hydrated';

/** A toast as the root loader hands it over (see app/web/toast.server.ts). */
export type ToastMessage = {
  id: string;
  type: 'success' | 'error';
  title: string;
  description: string;
  /** A link button (spec §8: 'Premium upgraden' → /premium). */
  action?: { label: string; href: string };
};

const TOAST_EVENT = 'druckpreis:toast';

// Measuring before paint avoids a visible jump; the server render has nothing to measure.
const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

type Box = { left: number; top: number; right: number; bottom: number };

const overlaps = (a: Box, b: Box) => a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;

/** Visible form fields on screen right now. */
function fieldBoxes(): Box[] {
  return [...document.querySelectorAll('input:not([type=hidden]), textarea, select')]
    .map((field) => field.getBoundingClientRect())
    .filter((box) => box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < window.innerHeight);
}

/**
 * The toast's edge: the top, unless it would cover a form field there and
 * the bottom would not (a toast raised in the browser while the visitor is
 * scrolled down to a form, e.g. the contact form sent with JavaScript).
 */
function freeEdge(toast: HTMLElement, current: 'top' | 'bottom'): 'top' | 'bottom' {
  const box = toast.getBoundingClientRect();
  const margin = current === 'top' ? box.top : window.innerHeight - box.bottom;
  const atTop = { left: box.left, right: box.right, top: margin, bottom: margin + box.height };
  const atBottom = { left: box.left, right: box.right, top: window.innerHeight - margin - box.height, bottom: window.innerHeight - margin };
  const fields = fieldBoxes();
  const coversTop = fields.some((field) => overlaps(field, atTop));
  const coversBottom = fields.some((field) => overlaps(field, atBottom));
  return coversTop && !coversBottom ? 'bottom' : 'top';
}

/**
 * Shows a toast from browser code (e.g. after a fetch that did not go through
 * an action, or when the network is down). Server code uses the flash cookie.
 */
export function showToast(toast: Omit<ToastMessage, 'id' | 'description'> & { description?: string }) {
  const detail: ToastMessage = { id: `client-${Date.now()}-${Math.random()}`, description: '', ...toast };
  window.dispatchEvent(new CustomEvent<ToastMessage>(TOAST_EVENT, { detail }));
}

/**
 * At most one toast. Rendered on the server from the flash cookie, so it
 * shows without JavaScript (a CSS animation fades it after 5 s); with
 * JavaScript it can be closed, and it is removed when that fade ends. Either
 * way a mouse pointing at it or the focus inside it holds it.
 *
 * Where: never over a form field. After a form is sent the page shows its
 * top (the redirect back), and fields start below the header and the page
 * heading, so phones get the toast over the header; wider screens get a
 * narrow one at the top right, below the header, beside the page's centred
 * column. (Bottom right used to cover the profile's password fields.) With
 * JavaScript a toast raised while a form is at the top of the screen moves
 * to the bottom edge if that one is free.
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

  const [edge, setEdge] = useState<'top' | 'bottom'>('top');
  const regionRef = useRef<HTMLElement>(null);
  useIsomorphicLayoutEffect(() => {
    const toast = regionRef.current?.querySelector<HTMLElement>('[data-toast]');
    if (toast) setEdge((previous) => freeEdge(toast, previous));
  }, [current]);

  const isError = current?.type === 'error';
  const Icon = isError ? CircleAlert : CircleCheck;

  return (
    <section
      ref={regionRef}
      aria-label={t('toast.region')}
      data-toast-edge={edge}
      className={`no-print pointer-events-none fixed inset-x-0 z-[60] flex justify-end p-2 sm:left-auto sm:right-4 sm:p-0 ${
        edge === 'top' ? 'top-0 sm:top-18' : 'bottom-0 sm:bottom-4'
      }`}
    >
      {/* The live region stays in the document so screen readers announce toasts added later. */}
      <div role="status" aria-live="polite" aria-atomic="true" className="w-full sm:w-72">
        {current ? (
          <div
            key={current.id}
            data-toast={current.type}
            // Removed when its fade (app.css) ends: the same 5 s as without scripts, and pointing at it
            // or focusing it keeps it just the same.
            onAnimationEnd={(event) => {
              if (event.target === event.currentTarget) setCurrent(null);
            }}
            className={`toast-auto-hide pointer-events-auto flex items-start gap-3 rounded-card border px-3 py-2.5 shadow-lg sm:p-4 ${
              isError ? 'border-danger-600/40 bg-danger-50 text-danger-700' : 'border-success-600/40 bg-success-50 text-ink'
            }`}
          >
            <Icon aria-hidden="true" className={`mt-0.5 size-5 shrink-0 ${isError ? 'text-danger-600' : 'text-success-600'}`} />
            <div className="min-w-0 flex-1">
              <p className="text-sm font-semibold sm:text-base">{current.title}</p>
              {current.description ? <p className="mt-0.5 text-sm leading-snug text-ink-muted sm:mt-1">{current.description}</p> : null}
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
