import { Link, NavLink, useLocation } from '@remix-run/react';
import { Box, LogIn, Menu, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What the header needs to know about a signed-in user. Accounts arrive in a
 * later issue: passing `user` will then switch to the signed-in variant
 * (Projekte, a Verwaltung dropdown with Filamente, Drucker, Verpackung,
 * Marktplaetze, Versanddienstleister, and a user menu with Premium, Profil,
 * Admin, Abmelden). Until then every visitor gets the visitor variant.
 */
export type SiteHeaderUser = {
  id: string;
  email: string;
  firstName?: string | null;
  profileImageUrl?: string | null;
  isPremium: boolean;
  isAdmin: boolean;
};

export type SiteHeaderProps = {
  /** The signed-in user; null or absent renders the visitor header. */
  user?: SiteHeaderUser | null;
};

type NavItem = { to: string; labelKey: string; end?: boolean };

/** Links shown inline on wide screens and in the menu on small screens. */
const VISITOR_LINKS: NavItem[] = [{ to: '/calculator', labelKey: 'nav.calculator' }];
/** The small-screen menu also offers the start page (the logo is the only other way there). */
const VISITOR_MENU_LINKS: NavItem[] = [{ to: '/', labelKey: 'nav.home', end: true }, ...VISITOR_LINKS];

/**
 * The header's links for this visitor. The signed-in set (Projekte, the
 * Verwaltung dropdown, the user menu replacing "Anmelden") is added here with accounts.
 */
function navigationFor(_user: SiteHeaderUser | null) {
  return { links: VISITOR_LINKS, menuLinks: VISITOR_MENU_LINKS };
}

const inlineLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium transition-colors ${
    isActive ? 'bg-brand-50 text-brand-700' : 'text-ink-muted hover:bg-surface-subtle hover:text-brand-700'
  }`;

const menuLinkClass = ({ isActive }: { isActive: boolean }) =>
  `flex min-h-11 items-center rounded-md px-3 text-base font-medium transition-colors ${
    isActive ? 'bg-brand-50 text-brand-700' : 'text-ink hover:bg-surface-subtle hover:text-brand-700'
  }`;

export function SiteHeader({ user = null }: SiteHeaderProps) {
  const { t } = useTranslation();
  const { links, menuLinks } = navigationFor(user);

  return (
    <header data-site-header className="border-b border-surface-line bg-surface">
      <nav aria-label={t('nav.mainNavigation')} className="mx-auto flex h-16 max-w-page items-center justify-between gap-3 px-4">
        <Link to="/" className="-ml-1 flex shrink-0 items-center gap-1.5 rounded-md px-1 py-1 text-base font-bold tracking-tight text-ink sm:gap-2 sm:text-lg">
          <span aria-hidden="true" className="flex size-7 items-center justify-center rounded-lg bg-brand-600 text-white shadow-card sm:size-8">
            <Box className="size-5" strokeWidth={2.25} />
          </span>
          <span>{t('appName')}</span>
        </Link>

        <div className="flex items-center gap-2">
          <ul className="hidden items-center gap-1 md:flex">
            {links.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end} className={inlineLinkClass}>
                  {t(item.labelKey)}
                </NavLink>
              </li>
            ))}
          </ul>

          <Link
            to="/auth"
            className="inline-flex min-h-10 items-center gap-1.5 rounded-md bg-brand-600 px-3 text-sm font-semibold text-white transition-colors hover:bg-brand-700 md:ml-2 md:px-4"
          >
            <LogIn aria-hidden="true" className="hidden size-4 sm:block" />
            {t('nav.login')}
          </Link>

          <MobileMenu links={menuLinks} />
        </div>
      </nav>
    </header>
  );
}

/**
 * Small-screen menu as <details>/<summary>: opens and closes without
 * JavaScript. With it, the menu also closes on a link click, on navigation,
 * on Escape and on a click outside.
 */
function MobileMenu({ links }: { links: NavItem[] }) {
  const { t } = useTranslation();
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  useEffect(() => {
    detailsRef.current?.removeAttribute('open');
  }, [location.key]);

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
  }, []);

  return (
    <details ref={detailsRef} className="group/menu relative md:hidden">
      <summary
        aria-label={t('nav.menu')}
        className="flex min-h-10 list-none items-center gap-1.5 rounded-md border border-surface-line px-2.5 text-sm font-medium text-ink hover:bg-surface-subtle group-open/menu:bg-surface-subtle [&::-webkit-details-marker]:hidden"
      >
        <Menu aria-hidden="true" className="size-5 group-open/menu:hidden" />
        <X aria-hidden="true" className="hidden size-5 group-open/menu:block" />
        <span>{t('nav.menu')}</span>
      </summary>
      <div className="absolute right-0 top-full z-50 mt-2 w-64 rounded-card border border-surface-line bg-surface p-2 shadow-lg">
        <ul className="flex flex-col gap-1">
          {links.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.end}
                className={menuLinkClass}
                onClick={() => detailsRef.current?.removeAttribute('open')}
              >
                {t(item.labelKey)}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}
