import { Form, Link, NavLink, useLocation } from '@remix-run/react';
import { Box, ChevronDown, CircleUserRound, Crown, LogIn, LogOut, Menu, X } from 'lucide-react';
import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What the header needs to know about a signed-in user. With a `user` the
 * header shows Rechner, Projekte, the Verwaltung dropdown (Filamente, Drucker,
 * Verpackung, Marktplaetze, Versanddienstleister) and the user menu (Premium,
 * Profil, Admin for admins, Abmelden); on small screens all of it sits in the
 * user menu. Dropdowns are <details>, sign-out a POST form: no JS needed.
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

/** Signed-in users: inline on wide screens, first in the user menu on small ones. */
const USER_LINKS: NavItem[] = [
  { to: '/calculator', labelKey: 'nav.calculator' },
  { to: '/projects', labelKey: 'nav.projects' },
];
/** The Verwaltung dropdown (spec §2 order). */
const MANAGEMENT_LINKS: NavItem[] = [
  { to: '/filaments', labelKey: 'nav.filaments' },
  { to: '/printers', labelKey: 'nav.printers' },
  { to: '/packaging', labelKey: 'nav.packaging' },
  { to: '/marketplaces', labelKey: 'nav.marketplaces' },
  { to: '/shipping', labelKey: 'nav.shipping' },
];

/** The header's links for this visitor or user. */
function navigationFor(user: SiteHeaderUser | null) {
  if (!user) return { links: VISITOR_LINKS, menuLinks: VISITOR_MENU_LINKS, management: [] as NavItem[], account: [] as NavItem[] };
  const account: NavItem[] = [
    { to: '/premium', labelKey: 'nav.premium' },
    { to: '/profile', labelKey: 'nav.profile' },
    ...(user.isAdmin ? [{ to: '/admin', labelKey: 'nav.admin' }] : []),
  ];
  return { links: USER_LINKS, menuLinks: USER_LINKS, management: MANAGEMENT_LINKS, account };
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
  const { links, menuLinks, management, account } = navigationFor(user);

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
            {management.length > 0 ? (
              <li>
                <ManagementMenu links={management} />
              </li>
            ) : null}
          </ul>

          {user ? (
            <UserMenu user={user} navLinks={menuLinks} management={management} account={account} />
          ) : (
            <>
              <Link
                to="/auth"
                className="inline-flex min-h-10 items-center gap-1.5 rounded-md bg-brand-600 px-3 text-sm font-semibold text-white transition-colors hover:bg-brand-700 md:ml-2 md:px-4"
              >
                <LogIn aria-hidden="true" className="hidden size-4 sm:block" />
                {t('nav.login')}
              </Link>
              <MobileMenu links={menuLinks} />
            </>
          )}
        </div>
      </nav>
    </header>
  );
}

/**
 * A <details> dropdown opens and closes without JavaScript. With it, the menu
 * also closes on navigation, on Escape and on a click outside.
 */
function useDismissableDetails(detailsRef: RefObject<HTMLDetailsElement>) {
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

const summaryResetClass = 'list-none [&::-webkit-details-marker]:hidden';

/** The dropdown panel of a <details> menu: its links, closing the menu when one is followed. */
function MenuPanel({ links, width, onNavigate }: { links: NavItem[]; width: string; onNavigate: () => void }) {
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

/** "Verwaltung" on wide screens: the library pages. */
function ManagementMenu({ links }: { links: NavItem[] }) {
  const { t } = useTranslation();
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  useDismissableDetails(detailsRef);
  const active = links.some((item) => location.pathname.startsWith(item.to));

  return (
    <details ref={detailsRef} data-management-menu className="group/manage relative">
      <summary
        className={`${summaryResetClass} flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium transition-colors ${
          active ? 'bg-brand-50 text-brand-700' : 'text-ink-muted hover:bg-surface-subtle hover:text-brand-700'
        }`}
      >
        {t('nav.management')}
        <ChevronDown aria-hidden="true" className="size-4 transition-transform group-open/manage:rotate-180" />
      </summary>
      <MenuPanel links={links} width="w-60" onNavigate={() => detailsRef.current?.removeAttribute('open')} />
    </details>
  );
}

/**
 * The user menu: picture (or icon) and first name (or e-mail). Premium users
 * get the gold button with a crown. On small screens it also holds every
 * navigation link; "Abmelden" is a POST form to /logout.
 */
function UserMenu({
  user,
  navLinks,
  management,
  account,
}: {
  user: SiteHeaderUser;
  navLinks: NavItem[];
  management: NavItem[];
  account: NavItem[];
}) {
  const { t } = useTranslation();
  const detailsRef = useRef<HTMLDetailsElement>(null);
  useDismissableDetails(detailsRef);
  const name = user.firstName?.trim() || user.email;
  const close = () => detailsRef.current?.removeAttribute('open');

  return (
    <details ref={detailsRef} data-user-menu className="group/user relative md:ml-2">
      <summary
        aria-label={t(user.isPremium ? 'nav.userMenuPremium' : 'nav.userMenu', { name })}
        className={`${summaryResetClass} flex min-h-10 max-w-56 items-center gap-2 rounded-full border py-1 pl-1 pr-3 text-sm font-medium transition-colors ${
          user.isPremium
            ? 'border-premium-500 bg-premium-400 text-ink hover:bg-premium-500'
            : 'border-surface-line bg-surface text-ink hover:bg-surface-subtle group-open/user:bg-surface-subtle'
        }`}
      >
        {user.profileImageUrl ? (
          <img src={user.profileImageUrl} alt="" className="size-8 shrink-0 rounded-full border border-surface-line bg-surface object-cover" />
        ) : (
          <CircleUserRound aria-hidden="true" className="size-8 shrink-0 text-ink-muted" strokeWidth={1.5} />
        )}
        {user.isPremium ? <Crown aria-hidden="true" data-premium-crown className="size-4 shrink-0" /> : null}
        <span className="hidden truncate sm:inline">{name}</span>
        <Menu aria-hidden="true" className="size-4 shrink-0 md:hidden" />
        <ChevronDown aria-hidden="true" className="hidden size-4 shrink-0 transition-transform group-open/user:rotate-180 md:block" />
      </summary>
      <div className="absolute right-0 top-full z-50 mt-2 w-64 rounded-card border border-surface-line bg-surface p-2 shadow-lg">
        <p className="truncate px-3 pb-2 pt-1 text-sm text-ink-muted">{user.email}</p>
        {/* Small screens: every link of the header lives here. */}
        <ul className="flex flex-col gap-1 border-t border-surface-line pt-2 md:hidden">
          {navLinks.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.end} className={menuLinkClass} onClick={close}>
                {t(item.labelKey)}
              </NavLink>
            </li>
          ))}
          <li className="px-3 pt-2 text-xs font-semibold uppercase tracking-wider text-ink-faint">{t('nav.management')}</li>
          {management.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} className={menuLinkClass} onClick={close}>
                {t(item.labelKey)}
              </NavLink>
            </li>
          ))}
        </ul>
        <ul className="mt-2 flex flex-col gap-1 border-t border-surface-line pt-2">
          {account.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} className={menuLinkClass} onClick={close}>
                {item.to === '/premium' && user.isPremium ? <Crown aria-hidden="true" className="mr-2 size-4 text-premium-500" /> : null}
                {t(item.labelKey)}
              </NavLink>
            </li>
          ))}
          <li>
            <Form method="post" action="/logout" reloadDocument>
              <button type="submit" className={`${menuLinkClass({ isActive: false })} w-full gap-2 text-left`}>
                <LogOut aria-hidden="true" className="size-4" />
                {t('nav.logout')}
              </button>
            </Form>
          </li>
        </ul>
      </div>
    </details>
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
  useDismissableDetails(detailsRef);

  return (
    <details ref={detailsRef} className="group/menu relative md:hidden">
      <summary
        aria-label={t('nav.menu')}
        className="flex min-h-10 list-none items-center gap-1.5 rounded-md border border-surface-line px-2.5 text-sm font-medium text-ink hover:bg-surface-subtle group-open/menu:bg-surface-subtle [&::-webkit-details-marker]:hidden"
      >
        <Menu aria-hidden="true" className="size-5 group-open/menu:hidden" />
        <X aria-hidden="true" className="hidden size-5 group-open/menu:block" />
        {/* The word needs ~40 px a 320 px phone does not have; the summary's aria-label names it there. */}
        <span className="hidden min-[360px]:inline">{t('nav.menu')}</span>
      </summary>
      <MenuPanel links={links} width="w-64" onNavigate={() => detailsRef.current?.removeAttribute('open')} />
    </details>
  );
}
