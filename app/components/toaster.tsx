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
  /** The id of the section that shows it without scripts, where the page opens (SectionStatus); the toast stays hidden then. */
  section?: string;
};

const TOAST_EVENT = 'druckpreis:toast';

// Measuring before paint avoids a visible jump; the server render has nothing to measure.
const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

type Box = { left: number; top: number; right: number; bottom: number };

const overlaps = (a: Box, b: Box) => a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;

/** Visible elements on screen right now that match `selector`. */
function visibleBoxes(selector: string, toast: HTMLElement): Box[] {
  return [...document.querySelectorAll(selector)]
    .filter((element) => !toast.contains(element))
    .map((element) => element.getBoundingClientRect())
    .filter((box) => box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < window.innerHeight);
}

const FIELDS = 'input:not([type=hidden]), textarea, select';
// Buttons and links a toast should not sit on either ('… hinzufügen' below the header on the desktop).
const CONTROLS = 'button, a[href], summary, [role=button]';

export type ToastSpot = { edge: 'top' | 'bottom'; side: 'right' | 'left' };

/**
 * Where the toast goes: the first of its places that covers no form field and no control, else the
 * one that covers the fewest (a field weighs more than a button). Phones have a full-width toast
 * at the top (over the header) or the bottom, and only fields count there: the header is where it
 * belongs after a form was sent. Wider screens try the four corners beside the page's column.
 */
function freeSpot(toast: HTMLElement, current: ToastSpot): ToastSpot {
  const box = toast.getBoundingClientRect();
  const wide = window.innerWidth >= 640;
  const margin = current.edge === 'top' ? box.top : window.innerHeight - box.bottom;
  const sideMargin = current.side === 'right' ? window.innerWidth - box.right : box.left;
  const placed = ({ edge, side }: ToastSpot): Box => {
    const top = edge === 'top' ? margin : window.innerHeight - margin - box.height;
    const left = !wide ? box.left : side === 'right' ? window.innerWidth - sideMargin - box.width : sideMargin;
    return { left, right: left + box.width, top, bottom: top + box.height };
  };
  const fields = visibleBoxes(FIELDS, toast);
  const controls = wide ? visibleBoxes(CONTROLS, toast) : [];
  const spots: ToastSpot[] = wide
    ? [current, { edge: 'top', side: 'right' }, { edge: 'bottom', side: 'right' }, { edge: 'top', side: 'left' }, { edge: 'bottom', side: 'left' }]
    : [current, { edge: 'top', side: 'right' }, { edge: 'bottom', side: 'right' }];
  const cost = (spot: ToastSpot) => {
    const area = placed(spot);
    return fields.filter((field) => overlaps(field, area)).length * 100 + controls.filter((control) => overlaps(control, area)).length;
  };
  // The current place keeps priority on a tie, so a toast does not wander without reason.
  const costs = spots.map(cost);
  const best = costs.indexOf(Math.min(...costs));
  const chosen = spots[best];
  return chosen.edge === current.edge && chosen.side === current.side ? current : chosen;
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
 * heading, so phones with scripts get the toast over the header (closable, and
 * placed by freeSpot); phones without scripts, where nothing can close it, get it
 * in the page's flow under the header (`noscript:`, CSS `scripting: none`), so it
 * covers no button of the header or the page; wider screens get a
 * narrow one at the top right, below the header, beside the page's centred
 * column. (Bottom right used to cover the profile's password fields.) With
 * JavaScript the toast takes the first corner that covers no field and, on
 * wider screens, no button or link either (freeSpot).
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

  const [spot, setSpot] = useState<ToastSpot>({ edge: 'top', side: 'right' });
  const regionRef = useRef<HTMLElement>(null);
  useIsomorphicLayoutEffect(() => {
    const place = () => {
      const toast = regionRef.current?.querySelector<HTMLElement>('[data-toast]');
      if (toast) setSpot((previous) => freeSpot(toast, previous));
    };
    place();
    // Again once the page has settled: a dialog that closes with the same navigation (a library form
    // saved) closes in its own effect, after this one; the next frame sees the page without it.
    const frame = window.requestAnimationFrame(place);
    const timer = window.setTimeout(place, 250);
    return () => {
      window.cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [current]);
  const { edge, side } = spot;

  const isError = current?.type === 'error';
  const Icon = isError ? CircleAlert : CircleCheck;

  return (
    <section
      ref={regionRef}
      aria-label={t('toast.region')}
      data-toast-edge={edge}
      data-toast-side={side}
      // Without scripts on a phone the toast cannot be closed: it stands in the page's flow right under
      // the header (root.tsx renders the region there), so it covers neither the header's buttons nor the page.
      className={`no-print pointer-events-none fixed inset-x-0 z-[60] flex justify-end p-2 sm:p-0 noscript:max-sm:static noscript:max-sm:p-0 ${
        edge === 'top' ? 'top-0 sm:top-18' : 'bottom-0 sm:bottom-4'
      } ${side === 'right' ? 'sm:left-auto sm:right-4' : 'sm:right-auto sm:left-4'}`}
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
            className={`toast-auto-hide pointer-events-auto flex items-start gap-3 rounded-card border px-3 py-2.5 shadow-lg sm:p-4 noscript:max-sm:mx-4 noscript:max-sm:mt-3 noscript:max-sm:shadow-none ${
              isError ? 'border-danger-600/40 bg-danger-50 text-danger-700' : 'border-success-600/40 bg-success-50 text-ink'
            } ${current.section ? 'noscript:hidden' : ''}`}
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
