import { Link, NavLink } from '@remix-run/react';
import { Box, LogIn, Menu, X } from 'lucide-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '~/lib/lazy-part';
import { MenuPanel, useDismissableDetails, type NavItem } from './header-menu';
import type { SiteHeaderUser } from './site-header-user';

// "Verwaltung" and the user menu: never in a visitor's JavaScript.
const SignedInHeaderPart = lazyPart(() => import('./site-header-user'), '[data-user-menu]');

export type SiteHeaderProps = {
  /** The signed-in user; null or absent renders the visitor header. */
  user?: SiteHeaderUser | null;
};

/** Links shown inline on wide screens and in the menu on small screens. */
const VISITOR_LINKS: NavItem[] = [{ to: '/calculator', labelKey: 'nav.calculator' }];
/** The small-screen menu also offers the start page (the logo is the only other way there). */
const VISITOR_MENU_LINKS: NavItem[] = [{ to: '/', labelKey: 'nav.home', end: true }, ...VISITOR_LINKS];

/** Signed-in users: inline on wide screens, first in the user menu on small ones. */
const USER_LINKS: NavItem[] = [
  { to: '/calculator', labelKey: 'nav.calculator' },
  { to: '/projects', labelKey: 'nav.projects' },
  { to: '/angebote', labelKey: 'nav.quotes' },
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
                <SignedInHeaderPart part="management" links={management} />
              </li>
            ) : null}
          </ul>

          {user ? (
            <SignedInHeaderPart part="user" user={user} navLinks={menuLinks} management={management} account={account} />
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
