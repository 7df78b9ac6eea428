import { data, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from '@remix-run/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useChangeLanguage } from 'remix-i18next/react';
import { CookieConsent } from './components/cookie-consent';
import { GeneralErrorBoundary } from './components/error-boundary';
import { SiteFooter } from './components/site-footer';
import { SiteHeader } from './components/site-header';
import type { SiteHeaderUser } from './components/site-header-user';
import { Toaster, type ToastMessage } from './components/toaster';
import { bundleVersion, I18N_RESOURCES_ELEMENT_ID, namespaceUrl, parseNamespaceUrls, type NamespaceUrls } from './i18n';
import stylesheet from './styles/app.css?url';
import { toPublicUser, type PublicUser } from './models/users.server';
import { isAdmin, isPremium } from './domain/permissions';
import { getRequestContext } from './services/auth.server';
import { getConsent } from './web/consent.server';
import { LAZY_PARTS, partPreloads } from './server/part-preloads.server';
import { useNonce } from './lib/nonce';
import { getToast } from './web/toast.server';
import { getAdsView } from './models/ads.server';
import { lazyPart } from './lib/lazy-part';
import { DEFERRED_SCRIPTS_ID, useDeferredScriptsStarter } from './lib/deferred-scripts';

// Shown to past_due Premium users only: a chunk of its own, never part of anyone's first visit.
const PastDueBanner = lazyPart(() => import('./components/premium/past-due-banner'), '[data-past-due-banner]');

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  // The ICO for clients that ask for /favicon.ico by themselves (feed readers, bookmarks, old browsers); browsers that read SVG take the sharper one.
  { rel: 'icon', href: '/favicon.ico', sizes: '16x16 32x32 48x48' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export async function loader(args: LoaderFunctionArgs) {
  const { request } = args;
  // The request context is shared with the page's own loader: one session and user read per request.
  const [consent, ctx, { toast, headers }] = await Promise.all([getConsent(request), getRequestContext(args), getToast(request)]);
  const user = ctx.user;
  const premium = isPremium(user, ctx.now);
  const ads = await getAdsView(ctx, consent);
  return data(
    {
      locale: 'de' as const,
      consent,
      user: user ? toPublicUser(user) : null,
      roles: { isAdmin: isAdmin(user), isPremium: premium },
      // Premium continues while Stripe retries a failed payment; every page asks for a new card (issue 21).
      pastDue: premium && user?.subscriptionStatus === 'past_due',
      ads,
      toast,
      // The header's signed-in menus are a chunk of their own: fetched with the page's scripts.
      partPreloads: user ? partPreloads(LAZY_PARTS.headerSignedIn) : [],
    },
    headers ? { headers } : undefined,
  );
}

/** The header's view of the signed-in user; the rights come from the one check each (requireAdmin's isAdmin, isPremium). */
function headerUser(user: PublicUser | null | undefined, roles: { isAdmin: boolean; isPremium: boolean } | undefined): SiteHeaderUser | null {
  if (!user) return null;
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    profileImageUrl: user.profileImageUrl,
    isPremium: Boolean(roles?.isPremium),
    isAdmin: Boolean(roles?.isAdmin),
  };
}

// No `headers` export here: a page is shared only if its own route says so (app/server/http-cache.ts).
// This loader reads the cookies (session, toast, consent), which is why shared pages vary on Cookie.
export const handle = { i18n: ['common'] };

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const locale = data?.locale ?? 'de';
  const nonce = useNonce();
  const preloads = usePartPreloads();
  const pageToast = usePageToast();
  // Worked out once per render: both the preloads and the list entry.client reads name these files.
  const namespaceUrls = usePageNamespaceUrls();
  useChangeLanguage(locale);
  return (
    <html lang={locale} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#177166" />
        <Meta />
        <Links />
        <RenderAfterParse />
      </head>
      <body className="flex min-h-screen flex-col">
        <SiteHeader user={headerUser(data?.user, data?.roles)} />
        {/* Right under the header: where a toast stands in the flow on a phone without scripts (toaster.tsx). */}
        <Toaster toast={data?.toast ?? pageToast} />
        {data?.pastDue ? <PastDueBanner /> : null}
        <div className="flex-1">{children}</div>
        <SiteFooter />
        <CookieConsent consent={data?.consent ?? null} />
        <ScrollRestoration nonce={nonce} />
        <DeferredScripts nonce={nonce}>
          <Scripts nonce={nonce} />
          {preloads.map((href) => (
            <link key={href} rel="modulepreload" href={href} />
          ))}
          <I18nPreloads urls={namespaceUrls} />
        </DeferredScripts>
        <I18nResources urls={namespaceUrls} />
      </body>
    </html>
  );
}

/**
 * The first paint waits until the document is parsed up to its scripts'
 * noscript (`<link rel="expect" blocking="render">`, standard HTML): one
 * parse, one style and one layout before the first paint, instead of a first
 * paint of the top of the page and the rest parsed and laid out again as long
 * tasks after it, which a slow phone's blocking time counted (issue 25). The
 * document is ~13 kB compressed, so it is all there by the time the stylesheet
 * (render-blocking anyway) is; browsers without `rel=expect` ignore the link.
 */
function RenderAfterParse() {
  // React 18 passes the lowercase attribute through as written.
  const renderBlocking = { blocking: 'render' } as Record<string, string>;
  return <link rel="expect" href={`#${DEFERRED_SCRIPTS_ID}`} {...renderBlocking} />;
}

/**
 * A toast a page's loader shows with its own answer (`pageToast` in its data), e.g. /admin's
 * 'Zugriff verweigert' next to the access-denied card; a flash-cookie toast goes first.
 */
function usePageToast(): ToastMessage | null {
  const matches = useMatches();
  for (const match of matches) {
    const toast = (match.data as { pageToast?: ToastMessage } | null | undefined)?.pageToast;
    if (toast) return toast;
  }
  return null;
}

/** The lazily loaded parts this page renders, as every matched route's loader names them (server/part-preloads.server.ts). */
function usePartPreloads(): string[] {
  const matches = useMatches();
  return [...new Set(matches.flatMap((match) => (match.data as { partPreloads?: string[] } | null | undefined)?.partPreloads ?? []))];
}

/**
 * Where the browser gets the translations this page rendered with: each
 * namespace's file under /locales with its version, named as inert JSON (not a
 * script the CSP has to allow), so the browser fetches them beside the scripts
 * and hydrates once both are there (entry.client.tsx). They used to be inlined:
 * 8 of /calculator's 19 KB of compressed HTML, all of it before the first paint
 * on a slow connection and needed only for hydration (issue 25).
 */
function I18nResources({ urls }: { urls: NamespaceUrls }) {
  return <script type="application/json" id={I18N_RESOURCES_ELEMENT_ID} dangerouslySetInnerHTML={{ __html: JSON.stringify(urls).replace(/</g, '\\u003c') }} />;
}

/** The same files preloaded, with the scripts after the first paint (inside `DeferredScripts`). */
function I18nPreloads({ urls }: { urls: NamespaceUrls }) {
  return (
    <>
      {Object.values(urls).flatMap((namespaces) =>
        Object.values(namespaces).map((href) => <link key={href} rel="preload" as="fetch" crossOrigin="anonymous" href={href} />),
      )}
    </>
  );
}

function usePageNamespaceUrls(): NamespaceUrls {
  const { i18n } = useTranslation();
  const matches = useMatches();
  const [urls] = useState<NamespaceUrls>(() => {
    // In the browser keep exactly what the server rendered, so hydration matches.
    if (typeof document !== 'undefined') return parseNamespaceUrls(document.getElementById(I18N_RESOURCES_ELEMENT_ID)?.textContent);
    const lng = i18n.language;
    return { [lng]: Object.fromEntries(routeNamespaces(matches).map((ns) => [ns, namespaceUrl(lng, ns, cachedVersion(i18n.getResourceBundle(lng, ns) ?? {}))])) };
  });
  return urls;
}

/**
 * The page's scripts, fetched only after the first contentful paint (issue 25;
 * why and how in lib/deferred-scripts.ts). Inside the noscript: Remix's
 * `<Scripts>` and the page's other preloads, as the server renders them; React
 * neither hydrates nor re-renders a noscript's content.
 */
function DeferredScripts({ nonce, children }: { nonce: string | undefined; children: React.ReactNode }) {
  // In the browser the starter is '' and React leaves the script's text as the server wrote it.
  const starter = useDeferredScriptsStarter();
  return (
    <>
      <noscript id={DEFERRED_SCRIPTS_ID}>{children}</noscript>
      <script
        nonce={nonce}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: starter }}
      />
    </>
  );
}

// The server's bundles never change while it runs: each one's version is computed once.
const versions = new WeakMap<object, string>();
function cachedVersion(bundle: object): string {
  let version = versions.get(bundle);
  if (version === undefined) versions.set(bundle, (version = bundleVersion(bundle)));
  return version;
}

/** The translation namespaces the matched routes declare in `handle.i18n`. */
function routeNamespaces(matches: ReturnType<typeof useMatches>): string[] {
  return [...new Set(matches.flatMap((match) => (match.handle as { i18n?: string[] } | undefined)?.i18n ?? []))];
}

export default function App() {
  /*
   * Every namespace a route declares is loaded before the route renders: on a
   * client-side navigation this suspends inside Remix's transition (the old
   * page stays) until all of them are there. Components that ask for fewer
   * namespaces than they use (`t('auth:errors.…')` under
   * `useTranslation('account')`, the schema's messages) are covered too.
   */
  useTranslation(routeNamespaces(useMatches()));
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
