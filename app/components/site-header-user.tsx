import { Form, NavLink, useLocation } from '@remix-run/react';
import { ChevronDown, CircleUserRound, Crown, LogOut, Menu } from 'lucide-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { MenuPanel, menuLinkClass, summaryResetClass, useDismissableDetails, type NavItem } from './header-menu';

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

export type SignedInHeaderProps =
  | { part: 'management'; links: NavItem[] }
  | { part: 'user'; user: SiteHeaderUser; navLinks: NavItem[]; management: NavItem[]; account: NavItem[] };

/**
 * The header's menus for a signed-in user ("Verwaltung" and the user menu):
 * a chunk of its own (lib/lazy-part.ts), so a visitor's pages never
 * download them; one component for both, so a page waits for one chunk once.
 */
export default function SignedInHeaderPart(props: SignedInHeaderProps) {
  return props.part === 'management' ? <ManagementMenu links={props.links} /> : <UserMenu {...props} />;
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
      {/* At most the screen below the header: on a 320 × 568 phone the links are taller, and the panel scrolls. */}
      <div
        data-user-menu-panel
        className="absolute right-0 top-full z-50 mt-2 max-h-[calc(100dvh-5rem)] w-64 overflow-y-auto overscroll-contain rounded-card border border-surface-line bg-surface p-2 shadow-lg"
      >
        <p className="truncate px-3 pb-2 pt-1 text-sm text-ink-muted" title={user.email}>{user.email}</p>
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
