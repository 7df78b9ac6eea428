import { useNavigate } from '@remix-run/react';
import { CreditCard } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClassName } from '~/components/ui/button-link';

/**
 * The Payment Element path (spec §4 "Subscription"), rendered only once
 * scripts run and only after payment-cookie consent (the page decides).
 * Stripe.js is loaded here, on /premium only, never on other pages.
 *
 * Upgrade → POST /api/subscription/create → { clientSecret } → the Payment
 * Element, usable once it reports ready → confirmPayment. Afterwards the page
 * data are read again from the server (`/premium?checkout=success`: the
 * server asks Stripe and answers with the new state), immediately on success,
 * after 4 s while pending, after 5 s on an unexpected error and after 3 s on
 * any other error; card and validation errors stay on the form.
 */

type StripeError = { type?: string; message?: string };
type PaymentElement = { mount(element: HTMLElement): void; on(event: 'ready', handler: () => void): void; destroy?(): void };
type StripeElements = { create(type: 'payment', options?: Record<string, unknown>): PaymentElement };
type StripeInstance = {
  elements(options: { clientSecret: string; locale?: string; appearance?: Record<string, unknown> }): StripeElements;
  confirmPayment(options: {
    elements: StripeElements;
    confirmParams: { return_url: string };
    redirect: 'if_required';
  }): Promise<{ error?: StripeError; paymentIntent?: { status: string } }>;
};
type StripeFactory = (publicKey: string, options?: { locale?: string }) => StripeInstance;

declare global {
  interface Window {
    Stripe?: StripeFactory;
  }
}

const REFRESH_AFTER = { pending: 4_000, unexpected: 5_000, processing: 3_000 } as const;

let stripeJs: Promise<StripeFactory> | null = null;

/** Adds Stripe.js once (the page's CSP allows its host on /premium only). */
function loadStripeJs(src: string): Promise<StripeFactory> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  stripeJs ??= new Promise<StripeFactory>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => (window.Stripe ? resolve(window.Stripe) : reject(new Error('Stripe.js did not load')));
    script.onerror = () => {
      stripeJs = null;
      reject(new Error('Stripe.js could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return stripeJs;
}

type Message = { tone: 'error' | 'info' | 'success'; title?: string; text: string };

export function PaymentForm({ publicKey, stripeJsUrl, price }: { publicKey: string; stripeJsUrl: string; price: string }) {
  const { t } = useTranslation('premium');
  const navigate = useNavigate();
  const mountRef = useRef<HTMLDivElement>(null);
  const stripeRef = useRef<StripeInstance | null>(null);
  const elementsRef = useRef<StripeElements | null>(null);
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [ready, setReady] = useState(false);
  const [paying, setPaying] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);

  const refresh = (delay: number) => {
    window.setTimeout(() => navigate('/premium?checkout=success', { replace: true, preventScrollReset: true }), delay);
  };

  useEffect(() => {
    if (!clientSecret || !mountRef.current) return;
    let cancelled = false;
    let element: PaymentElement | null = null;
    loadStripeJs(stripeJsUrl)
      .then((factory) => {
        if (cancelled || !mountRef.current) return;
        const stripe = (stripeRef.current ??= factory(publicKey, { locale: 'de' }));
        const elements = stripe.elements({ clientSecret, locale: 'de' });
        elementsRef.current = elements;
        element = elements.create('payment');
        element.on('ready', () => !cancelled && setReady(true));
        element.mount(mountRef.current);
      })
      .catch((error: unknown) => {
        console.error(error);
        if (!cancelled) setMessage({ tone: 'error', text: t('errors.unreachable') });
      });
    return () => {
      cancelled = true;
      element?.destroy?.();
    };
  }, [clientSecret, publicKey, stripeJsUrl, t]);

  async function start() {
    setCreating(true);
    setMessage(null);
    try {
      const response = await fetch('/api/subscription/create', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      const body = (await response.json().catch(() => ({}))) as { clientSecret?: string; message?: string };
      if (!response.ok) {
        setMessage({ tone: 'error', text: body.message || t('errors.createFailed') });
        return;
      }
      if (!body.clientSecret) {
        setMessage({ tone: 'error', text: t('toasts.missingSecret') });
        return;
      }
      setClientSecret(body.clientSecret);
    } catch {
      setMessage({ tone: 'error', text: t('errors.createFailed') });
    } finally {
      setCreating(false);
    }
  }

  async function pay(event: React.FormEvent) {
    event.preventDefault();
    if (!clientSecret) {
      setMessage({ tone: 'error', text: t('toasts.missingSecret') });
      return;
    }
    const stripe = stripeRef.current;
    const elements = elementsRef.current;
    if (!ready || !stripe || !elements) {
      setMessage({ tone: 'info', text: t('upgrade.loading') });
      return;
    }
    setPaying(true);
    setMessage(null);
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: `${window.location.origin}/premium?checkout=success` },
        redirect: 'if_required',
      });
      if (error) {
        if (error.type === 'card_error' || error.type === 'validation_error') {
          setMessage({ tone: 'error', title: t('toasts.paymentFailed'), text: error.message ?? '' });
          setPaying(false);
        } else {
          setMessage({ tone: 'info', text: t('toasts.processing') });
          refresh(REFRESH_AFTER.processing);
        }
        return;
      }
      if (paymentIntent?.status === 'succeeded') {
        setMessage({ tone: 'success', title: t('toasts.active'), text: t('toasts.activeText') });
        refresh(0);
      } else if (paymentIntent?.status === 'processing') {
        setMessage({ tone: 'info', text: t('toasts.pending') });
        refresh(REFRESH_AFTER.pending);
      } else {
        setMessage({ tone: 'info', text: t('toasts.unexpected') });
        refresh(REFRESH_AFTER.unexpected);
      }
    } catch (error) {
      console.error(error);
      setMessage({ tone: 'info', text: t('toasts.unexpected') });
      refresh(REFRESH_AFTER.unexpected);
    }
  }

  return (
    <div data-payment-element-section>
      {clientSecret ? (
        <form onSubmit={pay} className="space-y-4" data-payment-form>
          <h2 className="text-lg font-bold">{t('upgrade.cardTitle')}</h2>
          <div ref={mountRef} data-payment-element className="min-h-40" />
          {ready ? null : <p className="text-sm text-ink-muted">{t('upgrade.loading')}</p>}
          <button type="submit" disabled={!ready || paying} className={buttonClassName({ size: 'lg' })}>
            <CreditCard aria-hidden="true" className="size-5" />
            {paying ? t('upgrade.paying') : ready ? t('upgrade.pay', { price }) : t('upgrade.loading')}
          </button>
        </form>
      ) : (
        <button type="button" onClick={start} disabled={creating} className={buttonClassName({ size: 'lg' })} data-upgrade-button>
          <CreditCard aria-hidden="true" className="size-5" />
          {creating ? t('upgrade.pending') : t('upgrade.button')}
        </button>
      )}
      <div aria-live="polite" className="mt-4">
        {message ? (
          <p
            role={message.tone === 'error' ? 'alert' : 'status'}
            data-payment-message={message.tone}
            className={`rounded-card border p-3 text-sm ${message.tone === 'error' ? 'border-red-300 bg-red-50 text-red-900' : 'border-brand-200 bg-brand-50 text-brand-900'}`}
          >
            {message.title ? <strong className="block">{message.title}</strong> : null}
            {message.text}
          </p>
        ) : null}
      </div>
    </div>
  );
}
