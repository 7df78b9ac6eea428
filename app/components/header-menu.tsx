import { NavLink, useLocation } from '@remix-run/react';
import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

/** What the header's menus share: the visitor's small-screen menu and the signed-in user's menus (./site-header-user.tsx). */
export type NavItem = { to: string; labelKey: string; end?: boolean };

export const menuLinkClass = ({ isActive }: { isActive: boolean }) =>
  `flex min-h-11 items-center rounded-md px-3 text-base font-medium transition-colors ${
    isActive ? 'bg-brand-50 text-brand-700' : 'text-ink hover:bg-surface-subtle hover:text-brand-700'
  }`;

/**
 * A <details> dropdown opens and closes without JavaScript. With it, the menu
 * also closes on navigation, on Escape and on a click outside.
 */
export function useDismissableDetails(detailsRef: RefObject<HTMLDetailsElement>) {
  const location = useLocation();
  const shownKey = useRef(location.key);

  // Close after a navigation, not on mount: a menu opened before the scripts loaded stays open.
  useEffect(() => {
    if (shownKey.current === location.key) return;
    shownKey.current = location.key;
    detailsRef.current?.removeAttribute('open');
  }, [location.key, detailsRef]);

  useEffect(() => {
    const details = detailsRef.current;
    if (!details) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape' || !details?.open) return;
      const hadFocus = details.contains(document.activeElement);
      details.open = false;
      if (hadFocus) details.querySelector('summary')?.focus();
    }
    function onPointerDown(event: PointerEvent) {
      if (details?.open && event.target instanceof Node && !details.contains(event.target)) details.open = false;
    }
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [detailsRef]);
}

export const summaryResetClass = 'list-none [&::-webkit-details-marker]:hidden';

/** The dropdown panel of a <details> menu: its links, closing the menu when one is followed. */
export function MenuPanel({ links, width, onNavigate }: { links: NavItem[]; width: string; onNavigate: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={`absolute right-0 top-full z-50 mt-2 ${width} rounded-card border border-surface-line bg-surface p-2 shadow-lg`}>
      <ul className="flex flex-col gap-1">
        {links.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} end={item.end} className={menuLinkClass} onClick={onNavigate}>
              {t(item.labelKey)}
            </NavLink>
          </li>
        ))}
      </ul>
    </div>
  );
}
