import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import type { ClientLoaderFunctionArgs } from '@remix-run/react';
import { Form, Link, useActionData, useLoaderData, useLocation, useRouteLoaderData } from '@remix-run/react';
import { Check, Crown, CreditCard, Info, Receipt, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { CookieSettingsButton } from '~/components/cookie-consent';
import { PaymentForm } from '~/components/premium/payment-form';
import { formatMonthlyPrice, formatPeriodEnd } from '~/components/premium/format';
import { SignInRequired } from '~/components/sign-in-required';
import { buttonClassName } from '~/components/ui/button-link';
import { getServerT } from '~/i18n.server';
import {
  getPremiumOffer,
  openBillingPortal,
  refreshSubscription,
  setCancelAtPeriodEnd,
  startCheckout,
  subscriptionStatusOf,
} from '~/models/premium.server';
import { requireUserContext } from '~/services/auth.server';
import { getRequestContext } from '~/services/request-context.server';
import type { loader as rootLoader } from '~/root';
import { getConsent } from '~/web/consent.server';
import { getAppUrl } from '~/lib/env.server';
import { pageMessageResult } from '~/web/result-response.server';
import { redirectWithToast } from '~/web/toast.server';
import { useHydrated } from '~/lib/use-hydrated';

const INTENTS = ['checkout', 'portal', 'cancel', 'resume'] as const;
type Intent = (typeof INTENTS)[number];

/** Query parameter that shows the cancel confirmation (the no-JS confirmation step). */
const CONFIRM_CANCEL_PARAM = 'kuendigen';

/**
 * /premium (issue 21). Visitors see the sign-in card. A seller coming back
 * from Checkout or 3-D Secure (`?checkout=success`) is brought in line with
 * Stripe on the server (`refreshSubscription`) and sent on to the clean
 * address, so header, banner and page show the new state in one response.
 */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await getRequestContext(args);
  const t = await getServerT('premium');
  const offer = await getPremiumOffer(ctx);
  const url = new URL(args.request.url);
  const base = { title: t('title'), offer: { ...offer, publicKey: offer.configured ? offer.publicKey : '' }, stripeJsUrl: stripeJsUrl() };
  if (!ctx.user) return { ...base, signedIn: false as const, status: null, cancelAtPeriodEnd: false, reachable: true, checkoutCancelled: false };
  const userCtx = { ...ctx, user: ctx.user };
  const returning = url.searchParams.get('checkout') === 'success';
  let reachable = true;
  if (returning || userCtx.user.subscriptionStatus === 'incomplete') {
    reachable = await refreshSubscription(userCtx, { checkoutSessionId: url.searchParams.get('session_id') });
  }
  const status = subscriptionStatusOf(userCtx.user, ctx.now);
  if (returning) {
    if (status.isPremium) throw await redirectWithToast('/premium', { type: 'success', title: t('toasts.active'), description: t('toasts.activeText') });
    if (reachable) throw redirect('/premium');
  }
  return {
    ...base,
    signedIn: true as const,
    status,
    cancelAtPeriodEnd: Boolean(userCtx.user.subscriptionCancelAtPeriodEnd),
    reachable,
    checkoutCancelled: url.searchParams.get('checkout') === 'cancel',
  };
}

/**
 * Stripe.js may run on /premium only: the page's CSP is widened for it there
 * (`handle.csp`), and a CSP belongs to the document. A link from another page
 * (the header's menu, the limit toast, an ad card) navigates in the browser,
 * which keeps that page's stricter policy, so the Payment Element could not
 * load. Arriving that way, the page is loaded as a document instead; once on
 * it (the refresh after paying, the cancel confirmation) navigations stay in
 * the browser.
 */
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  if (documentPath() !== PREMIUM_PATH) {
    window.location.assign(request.url);
    // The document load replaces this page; the navigation stays pending until then.
    return new Promise<never>(() => {});
  }
  return serverLoader<typeof loader>();
}

const PREMIUM_PATH = '/premium';

/** The path of the document this page was loaded as (after redirects), which decided its CSP. */
function documentPath(): string {
  const [navigation] = performance.getEntriesByType('navigation');
  return new URL(navigation?.name ?? window.location.href).pathname;
}

/** Where Stripe.js comes from: Stripe, or STRIPE_JS_URL (tests and local fakes only). */
function stripeJsUrl(): string {
  return process.env.STRIPE_JS_URL?.trim() || 'https://js.stripe.com/v3/';
}

export async function action(args: ActionFunctionArgs) {
  const ctx = await requireUserContext(args);
  const form = await args.request.formData().catch(() => null);
  const intent = String(form?.get('intent') ?? '') as Intent;
  if (!INTENTS.includes(intent)) return data({ intent: null, formError: (await getServerT('premium'))('errors.createFailed') }, { status: 400 });
  const t = await getServerT('premium');
  const baseUrl = getAppUrl().replace(/\/+$/, '');
  // Stripe's pages (checkout, portal) are reached by a 303, as the toast back here.
  const toStripe = ({ url }: { url: string }) => ({ redirectTo: url, status: 303 });
  switch (intent) {
    case 'checkout': {
      const consent = await getConsent(args.request);
      return pageMessageResult(await startCheckout(ctx, { paymentConsent: Boolean(consent?.preferences.payment), baseUrl }), toStripe, { extra: { intent } });
    }
    case 'portal':
      return pageMessageResult(await openBillingPortal(ctx, { baseUrl }), toStripe, { extra: { intent } });
    case 'cancel':
    case 'resume': {
      const key = intent === 'cancel' ? 'cancelled' : 'resumed';
      return pageMessageResult(await setCancelAtPeriodEnd(ctx, intent === 'cancel'), () => ({
        redirectTo: '/premium',
        toast: { type: 'success', title: t(`toasts.${key}`), description: t(`toasts.${key}Text`) },
        status: 303,
      }), { extra: { intent } });
    }
  }
}

export default function PremiumPage() {
  const { t } = useTranslation('premium');
  const loaderData = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <main className="mx-auto max-w-page px-4 py-8 sm:py-12">
      <h1 className="mb-2 flex items-center gap-2 text-2xl font-bold sm:text-3xl">
        <Crown aria-hidden="true" className="size-7 text-premium-500" />
        {t('title')}
      </h1>
      <p className="mb-8 text-ink-muted">{t('intro')}</p>
      {loaderData.signedIn ? <SignedInPremium /> : <SignInRequired feature="premium" redirectTo={location.pathname} />}
    </main>
  );
}

function SignedInPremium() {
  const { t } = useTranslation('premium');
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { offer, status } = loaderData;
  const isPremium = Boolean(status?.isPremium);
  return (
    <div className="space-y-6">
      {!loaderData.reachable ? <Notice tone="warning" text={t('unreachable')} /> : null}
      {loaderData.checkoutCancelled ? <Notice tone="info" text={t('checkoutCancelled')} /> : null}
      {actionData?.formError ? <Notice tone="warning" text={actionData.formError} role="alert" /> : null}
      {isPremium ? <StatusCard /> : null}
      <PlanComparison isPremium={isPremium} price={formatMonthlyPrice(offer.monthlyPrice, offer.currency)} />
      {isPremium ? null : offer.configured ? <Upgrade /> : <NotConfigured />}
    </div>
  );
}

function Notice({ tone, text, role }: { tone: 'info' | 'warning'; text: string; role?: 'alert' }) {
  const Icon = tone === 'warning' ? TriangleAlert : Info;
  return (
    <p
      role={role}
      data-premium-notice={tone}
      className={`flex items-start gap-2 rounded-card border p-4 text-sm ${tone === 'warning' ? 'border-amber-300 bg-amber-50 text-amber-900' : 'border-brand-200 bg-brand-50 text-brand-900'}`}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{text}</span>
    </p>
  );
}

function PlanComparison({ isPremium, price }: { isPremium: boolean; price: string }) {
  const { t } = useTranslation('premium');
  const freeFeatures = t('plans.free.features', { returnObjects: true }) as string[];
  const premiumFeatures = t('plans.premium.features', { returnObjects: true }) as string[];
  return (
    <section aria-label={t('title')} className="grid gap-4 md:grid-cols-2" data-plan-comparison>
      <article className="rounded-card border border-surface-line bg-surface p-6 shadow-card" data-plan="free">
        <h2 className="text-lg font-bold">{t('plans.free.name')}</h2>
        <p className="mt-2 text-3xl font-bold">{t('plans.free.price')}</p>
        <FeatureList features={freeFeatures} />
        {isPremium ? null : <p className="mt-4 text-sm font-semibold text-brand-700">{t('plans.free.current')}</p>}
      </article>
      <article className="rounded-card border-2 border-premium-500 bg-surface p-6 shadow-card" data-plan="premium">
        <h2 className="flex items-center gap-2 text-lg font-bold">
          <Crown aria-hidden="true" className="size-5 text-premium-500" />
          {t('plans.premium.name')}
        </h2>
        <p className="mt-2 text-3xl font-bold" data-premium-price>
          {t('plans.premium.perMonth', { price })}
        </p>
        <p className="text-sm text-ink-muted">{t('plans.premium.vatNote')}</p>
        <FeatureList features={premiumFeatures} />
        {isPremium ? <p className="mt-4 text-sm font-semibold text-brand-700">{t('plans.premium.current')}</p> : null}
      </article>
    </section>
  );
}

function FeatureList({ features }: { features: string[] }) {
  return (
    <ul className="mt-4 space-y-2 text-sm">
      {features.map((feature) => (
        <li key={feature} className="flex items-center gap-2">
          <Check aria-hidden="true" className="size-4 text-brand-600" />
          {feature}
        </li>
      ))}
    </ul>
  );
}

function NotConfigured() {
  const { t } = useTranslation('premium');
  return (
    <section className="rounded-card border border-dashed border-surface-line bg-surface p-6 shadow-card" data-payments-not-configured>
      <h2 className="text-lg font-bold">{t('notConfigured.title')}</h2>
      <p className="mt-2 text-ink-muted">{t('notConfigured.text')}</p>
    </section>
  );
}

function Upgrade() {
  const { t } = useTranslation('premium');
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const { offer, stripeJsUrl } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  if (!root?.consent?.preferences.payment) {
    return (
      <section className="rounded-card border border-amber-300 bg-amber-50 p-6" data-payment-consent-notice>
        <h2 className="text-lg font-bold text-amber-900">{t('consent.title')}</h2>
        <p className="mt-2 text-amber-900">{t('consent.text')}</p>
        <CookieSettingsButton className={buttonClassName({ className: 'mt-4' })}>{t('consent.button')}</CookieSettingsButton>
      </section>
    );
  }
  const checkoutForm = (
    <form method="post" data-checkout-form>
      <input type="hidden" name="intent" value="checkout" />
      <button type="submit" className={buttonClassName({ size: 'lg', variant: hydrated && offer.publicKey ? 'secondary' : 'primary' })}>
        <CreditCard aria-hidden="true" className="size-5" />
        {hydrated && offer.publicKey ? t('upgrade.checkoutInstead') : t('upgrade.button')}
      </button>
      <p className="mt-2 text-sm text-ink-muted">{t('upgrade.checkoutHint')}</p>
    </form>
  );
  return (
    <section className="space-y-6 rounded-card border border-surface-line bg-surface p-6 shadow-card" data-upgrade>
      {hydrated && offer.publicKey ? (
        <PaymentForm publicKey={offer.publicKey} stripeJsUrl={stripeJsUrl} price={formatMonthlyPrice(offer.monthlyPrice, offer.currency)} />
      ) : null}
      {checkoutForm}
    </section>
  );
}

function StatusCard() {
  const { t } = useTranslation('premium');
  const { status, cancelAtPeriodEnd } = useLoaderData<typeof loader>();
  const location = useLocation();
  const confirming = new URLSearchParams(location.search).has(CONFIRM_CANCEL_PARAM);
  if (!status) return null;
  const date = status.currentPeriodEnd ? formatPeriodEnd(status.currentPeriodEnd) : null;
  const statusName = t(`status.names.${status.status ?? 'active'}`, { defaultValue: status.status ?? '' });
  return (
    <section aria-labelledby="premium-status-title" className="rounded-card border-2 border-premium-500 bg-surface p-6 shadow-card" data-premium-status>
      <h2 id="premium-status-title" className="flex items-center gap-2 text-lg font-bold">
        <Crown aria-hidden="true" className="size-5 text-premium-500" />
        {t('status.title')}
      </h2>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="font-semibold">{t('status.label')}</dt>
        <dd data-premium-status-name>{statusName}</dd>
        <dt className="font-semibold">{cancelAtPeriodEnd ? t('status.endsOn') : t('status.renewsOn')}</dt>
        <dd data-premium-period-end>{date ?? t('status.unknownDate')}</dd>
      </dl>
      {cancelAtPeriodEnd ? <p className="mt-4 text-sm text-ink-muted">{t('status.cancelledNote')}</p> : null}
      <div className="mt-6 flex flex-wrap gap-3">
        {cancelAtPeriodEnd ? (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="resume" />
            <button type="submit" className={buttonClassName()}>
              {t('actions.resume')}
            </button>
          </Form>
        ) : confirming ? null : (
          <Link to={`?${CONFIRM_CANCEL_PARAM}=1`} preventScrollReset className={buttonClassName({ variant: 'secondary' })} data-cancel-link>
            {t('actions.cancel')}
          </Link>
        )}
        <form method="post">
          <input type="hidden" name="intent" value="portal" />
          <button type="submit" className={buttonClassName({ variant: 'ghost' })}>
            <Receipt aria-hidden="true" className="size-4" />
            {t('actions.portal')}
          </button>
        </form>
      </div>
      {confirming && !cancelAtPeriodEnd ? (
        <div role="alertdialog" aria-labelledby="cancel-confirm-title" className="mt-6 rounded-card border border-amber-300 bg-amber-50 p-4" data-cancel-confirm>
          <h3 id="cancel-confirm-title" className="font-bold text-amber-900">
            {t('actions.confirmTitle')}
          </h3>
          <p className="mt-2 text-sm text-amber-900">{t('actions.confirmText', { date: date ? t('actions.confirmDate', { date }) : '' })}</p>
          <div className="mt-4 flex flex-wrap gap-3">
            <Form method="post" action="/premium" preventScrollReset>
              <input type="hidden" name="intent" value="cancel" />
              <button type="submit" className={buttonClassName()}>
                {t('actions.confirm')}
              </button>
            </Form>
            <Link to="/premium" preventScrollReset className={buttonClassName({ variant: 'secondary' })}>
              {t('actions.keep')}
            </Link>
          </div>
        </div>
      ) : null}
    </section>
  );
}

// Stripe.js, its frames and the form posts that end at Checkout: allowed on this page only.
export const handle = { i18n: ['common', 'premium'], csp: ['payments'] };

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: `${data.title} – Druckpreis` }] : []);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
