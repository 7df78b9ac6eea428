import { Link, useFetcher, useLocation } from '@remix-run/react';
import { ChevronDown, Cookie, X } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CONSENT_DISMISS_PARAM,
  CONSENT_DISMISS_VALUE,
  COOKIE_SETTINGS_PARAM,
  OPEN_COOKIE_SETTINGS_EVENT,
  OPTIONAL_CONSENT_FLAGS,
  currentPathWithoutConsentParams,
  openCookieSettings,
  preferencesFromFormData,
  readStoredConsent,
  samePreferences,
  withoutConsentParams,
  writeStoredConsent,
  type ConsentFlag,
  type ConsentRecord,
} from '~/lib/consent';

/*
 * Cookie consent dialog (spec §4). Works without JavaScript first:
 *
 * - Choices: a plain POST form to /cookie-consent, which sets the cookie and
 *   redirects back to this page.
 * - The X: a GET form to this page with `consent=dismissed` added, which
 *   renders the page without the dialog (for that page view only; nothing is
 *   saved, so it shows again on the next page, as the spec's "closes without
 *   saving" implies).
 * - "Cookie-Einstellungen" (footer, premium notice): a GET form adding
 *   `cookie-settings=1`, which renders the page with the dialog and its
 *   settings open. A real button in both modes, and other query parameters of
 *   the page are kept.
 *
 * With JavaScript the same forms are intercepted: choices go through a fetcher
 * (no navigation) and are mirrored to localStorage, the X and the settings
 * button just toggle state.
 */

type CookieConsentProps = {
  /** The choice stored in the `cookie_consent` cookie (root loader), or null when none exists. */
  consent: ConsentRecord | null;
};

type DialogState = {
  open: boolean;
  /** Whether the category toggles start expanded. */
  showSettings: boolean;
  /** Bumped on every opening so the form remounts with fresh defaults. */
  generation: number;
};

// Made on first use (a consent date is shown only in the settings): not while the first visit's scripts load (issue 25).
let dateFormat: Intl.DateTimeFormat | undefined;
const consentDateFormat = () => (dateFormat ??= new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeZone: 'Europe/Berlin' }));

const FLAG_ORDER: ConsentFlag[] = ['essential', ...OPTIONAL_CONSENT_FLAGS];

const buttonBase =
  'inline-flex min-h-11 items-center justify-center rounded-md px-4 py-2 text-sm font-semibold transition-colors';
const primaryButton = `${buttonBase} bg-brand-600 text-white hover:bg-brand-700`;
const secondaryButton = `${buttonBase} border border-brand-600 bg-surface text-brand-700 hover:bg-brand-50`;

function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Hidden inputs that carry a page's other query parameters through a GET form. */
function HiddenSearchParams({ params }: { params: URLSearchParams }) {
  return (
    <>
      {[...params].map(([name, value], index) => (
        <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

export function CookieConsent({ consent }: CookieConsentProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const fetcher = useFetcher({ key: 'cookie-consent' });
  const headingId = useId();
  const descriptionId = useId();
  const choiceFormId = useId();
  const dialogRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Where focus was when the visitor opened the dialog, to return it on close.
  const openerRef = useRef<HTMLElement | null>(null);
  const focusOnOpenRef = useRef(false);

  const params = new URLSearchParams(location.search);
  const settingsRequested = params.has(COOKIE_SETTINGS_PARAM);
  const dismissedByUrl = params.get(CONSENT_DISMISS_PARAM) === CONSENT_DISMISS_VALUE;

  // Same rule on the server and on hydration, so the markup matches.
  const [state, setState] = useState<DialogState>(() => ({
    open: settingsRequested || (!consent && !dismissedByUrl),
    showSettings: settingsRequested,
    generation: 0,
  }));

  const open = useCallback((focus: boolean) => {
    focusOnOpenRef.current = focus;
    if (focus) {
      const active = document.activeElement;
      openerRef.current = active instanceof HTMLElement && active !== document.body ? active : null;
    }
    setState((current) => ({ open: true, showSettings: true, generation: current.generation + 1 }));
  }, []);

  const close = useCallback(() => {
    const hadFocus = dialogRef.current?.contains(document.activeElement) ?? false;
    setState((current) => ({ ...current, open: false }));
    const opener = openerRef.current;
    openerRef.current = null;
    // Don't leave keyboard focus on a node that is about to disappear.
    if (hadFocus && opener?.isConnected) requestAnimationFrame(() => opener.focus());
  }, []);

  // "Cookie-Einstellungen" anywhere on the page opens the dialog in place.
  useEffect(() => {
    const onOpen = () => open(true);
    window.addEventListener(OPEN_COOKIE_SETTINGS_EVENT, onOpen);
    return () => window.removeEventListener(OPEN_COOKIE_SETTINGS_EVENT, onOpen);
  }, [open]);

  // A client-side navigation to a `?cookie-settings=1` address opens it too.
  useEffect(() => {
    if (settingsRequested && !state.open) open(false);
    // Only when the address changes, not when the visitor closes the dialog.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key]);

  useEffect(() => {
    if (!state.open || !focusOnOpenRef.current) return;
    focusOnOpenRef.current = false;
    headingRef.current?.focus();
  }, [state.open, state.generation]);

  // Keep the cookie (what the server trusts) and the localStorage copy in step.
  const consentKey = consent ? `${consent.date}|${FLAG_ORDER.map((flag) => consent.preferences[flag]).join(',')}` : '';
  useEffect(() => {
    const storage = browserStorage();
    if (!storage) return;
    const stored = readStoredConsent(storage);
    if (consent) {
      if (!stored || stored.date !== consent.date || !samePreferences(stored.preferences, consent.preferences)) {
        writeStoredConsent(storage, consent);
      }
      return;
    }
    if (!stored) return;
    // The browser remembers a choice the cookie lost (expired, cleared): restore the cookie.
    setState((current) => (settingsRequested ? current : { ...current, open: false }));
    const formData = new FormData();
    formData.set('intent', 'save');
    for (const flag of OPTIONAL_CONSENT_FLAGS) if (stored.preferences[flag]) formData.set(flag, 'on');
    formData.set('date', stored.date);
    formData.set('enhanced', '1');
    fetcher.submit(formData, { method: 'post', action: '/cookie-consent' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [consentKey]);

  function handleChoice(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const formData = new FormData(form);
    if (submitter instanceof HTMLButtonElement && submitter.name) formData.set(submitter.name, submitter.value);
    const preferences = preferencesFromFormData(formData);
    if (!preferences) return;
    const date = new Date().toISOString();
    const storage = browserStorage();
    if (storage) writeStoredConsent(storage, { preferences, date });
    formData.set('date', date);
    formData.set('enhanced', '1');
    fetcher.submit(formData, { method: 'post', action: '/cookie-consent' });
    close();
  }

  function showSettings(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setState((current) => ({ ...current, showSettings: true }));
  }

  function handleDismiss(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    close();
  }

  if (!state.open) return null;

  const redirectTo = currentPathWithoutConsentParams(location.pathname, location.search);
  const keptParams = withoutConsentParams(location.search);
  const current = consent?.preferences;

  return (
    // Escape closes the dialog (the WAI-ARIA dialog pattern): the key events bubble up from its controls.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <section
      ref={dialogRef}
      data-cookie-consent
      role="dialog"
      aria-modal="false"
      aria-labelledby={headingId}
      aria-describedby={descriptionId}
      // Sticky at the end of the page: it floats above the content while
      // scrolling but never covers the footer at the bottom of the page.
      className="pointer-events-none sticky bottom-0 z-40 px-3 pb-3 sm:px-4 sm:pb-4"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          close();
        }
      }}
    >
      {/*
        On a short phone screen the text and the settings scroll inside the
        card while the two main choices stay at its bottom edge, always on
        screen. They sit outside the choice <form> (nested forms are invalid:
        the X is a form of its own) and belong to it through `form=`.
      */}
      <div
        key={state.generation}
        className="pointer-events-auto mx-auto flex max-h-[85vh] max-h-[calc(100dvh-1.5rem)] max-w-3xl flex-col overflow-hidden rounded-card border border-surface-line bg-surface shadow-xl"
      >
        <div className="min-h-0 overflow-y-auto p-4 sm:p-6 sm:pb-4">
          <div className="flex items-start gap-3">
            <span aria-hidden="true" className="hidden size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 sm:flex">
              <Cookie className="size-5" />
            </span>
            <div className="min-w-0 flex-1">
              <h2 ref={headingRef} id={headingId} tabIndex={-1} className="text-lg font-semibold text-ink">
                {t('cookieConsent.title')}
              </h2>
              {/*
                Short paragraphs on purpose (issue 25): on a phone the dialog is on screen at the first
                paint, and its one long paragraph was the largest paint instead of the page's own text.
              */}
              <div id={descriptionId} className="mt-1 text-sm text-ink-muted">
                <p>{t('cookieConsent.text')}</p>
                <p>{t('cookieConsent.textOptional')}</p>
              </div>
              <p className="mt-1 text-xs text-ink-muted">
                {t('cookieConsent.changeLater')}{' '}
                <Link to="/datenschutz" className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">
                  {t('cookieConsent.privacyLink')}
                </Link>
                {t('cookieConsent.textAfterLink')}
              </p>
              {consent ? (
                <p className="mt-1 text-sm text-ink-faint">
                  {t('cookieConsent.savedOn', { date: consentDateFormat().format(new Date(consent.date)) })}
                </p>
              ) : null}
            </div>
            <form method="get" action={location.pathname} onSubmit={handleDismiss} className="-mr-2 -mt-2 shrink-0">
              <HiddenSearchParams params={keptParams} />
              <button
                type="submit"
                name={CONSENT_DISMISS_PARAM}
                value={CONSENT_DISMISS_VALUE}
                aria-label={t('cookieConsent.close')}
                title={t('cookieConsent.close')}
                className="inline-flex size-11 items-center justify-center rounded-md text-ink-muted hover:bg-surface-subtle hover:text-ink"
              >
                <X aria-hidden="true" className="size-5" />
              </button>
            </form>
          </div>

          <form id={choiceFormId} method="post" action="/cookie-consent" onSubmit={handleChoice} className={state.showSettings ? 'mt-4' : undefined}>
            <input type="hidden" name="redirectTo" value={redirectTo} />

            {state.showSettings ? (
              <details open className="group/settings rounded-md border border-surface-line">
                <summary className="flex min-h-11 list-none items-center justify-between gap-2 rounded-md px-3 text-sm font-medium text-brand-700 hover:bg-surface-subtle [&::-webkit-details-marker]:hidden">
                  <span className="group-open/settings:hidden">{t('cookieConsent.showSettings')}</span>
                  <span className="hidden group-open/settings:inline">{t('cookieConsent.hideSettings')}</span>
                  <ChevronDown aria-hidden="true" className="size-4 transition-transform group-open/settings:rotate-180" />
                </summary>
                <fieldset className="border-t border-surface-line px-3 pb-3 pt-2">
                  <legend className="sr-only">{t('cookieConsent.categories')}</legend>
                  <ul className="divide-y divide-surface-line">
                    {FLAG_ORDER.map((flag) => (
                      <ConsentToggle
                        key={flag}
                        flag={flag}
                        label={t(`cookieConsent.flags.${flag}.label`)}
                        description={t(`cookieConsent.flags.${flag}.description`)}
                        badge={flag === 'essential' ? t('cookieConsent.alwaysActive') : undefined}
                        defaultChecked={flag === 'essential' ? true : (current?.[flag] ?? false)}
                      />
                    ))}
                  </ul>
                  <div className="mt-3 flex justify-end">
                    <button type="submit" name="intent" value="save" className={`${secondaryButton} w-full sm:w-auto`}>
                      {t('cookieConsent.saveSelection')}
                    </button>
                  </div>
                </fieldset>
              </details>
            ) : null}
          </form>
          {state.showSettings ? null : (
            /*
             * On a first visit the settings are not in the page (a quarter of the dialog's markup,
             * issue 25): without JavaScript this button reloads the page with them shown
             * (`cookie-settings=1`, as the footer's button does), with it they open in place.
             */
            <form method="get" action={location.pathname} onSubmit={showSettings} className="mt-4">
              <HiddenSearchParams params={keptParams} />
              <button
                type="submit"
                name={COOKIE_SETTINGS_PARAM}
                value="1"
                className="flex min-h-11 w-full items-center justify-between gap-2 rounded-md border border-surface-line px-3 text-sm font-medium text-brand-700 hover:bg-surface-subtle"
              >
                {t('cookieConsent.showSettings')}
                <ChevronDown aria-hidden="true" className="size-4" />
              </button>
            </form>
          )}
        </div>

        {/* Both main choices look equally weighty: refusing must be as easy as accepting. */}
        <div className="grid shrink-0 grid-cols-2 gap-2 border-t border-surface-line px-4 py-3 sm:flex sm:justify-end sm:gap-3 sm:border-t-0 sm:px-6 sm:pb-6 sm:pt-2">
          <button type="submit" form={choiceFormId} name="intent" value="necessary" className={secondaryButton}>
            {t('cookieConsent.necessaryOnly')}
          </button>
          <button type="submit" form={choiceFormId} name="intent" value="all" className={primaryButton}>
            {t('cookieConsent.acceptAll')}
          </button>
        </div>
      </div>
    </section>
  );
}

function ConsentToggle({
  flag,
  label,
  description,
  badge,
  defaultChecked,
}: {
  flag: ConsentFlag;
  label: string;
  description: string;
  badge?: string;
  defaultChecked: boolean;
}) {
  const id = useId();
  const essential = flag === 'essential';
  return (
    <li className="flex items-start justify-between gap-4 py-3">
      <div className="min-w-0">
        <label htmlFor={id} className="flex flex-wrap items-center gap-2 font-medium text-ink">
          {label}
          {badge ? (
            <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">{badge}</span>
          ) : null}
        </label>
        <p id={`${id}-description`} className="mt-0.5 text-sm text-ink-muted">
          {description}
        </p>
      </div>
      <span className="relative mt-0.5 inline-flex shrink-0">
        <input
          id={id}
          type="checkbox"
          role="switch"
          // Disabled inputs are not submitted; the server sets `essential` itself.
          name={essential ? undefined : flag}
          defaultChecked={defaultChecked}
          disabled={essential}
          aria-describedby={`${id}-description`}
          className="peer h-6 w-11 cursor-pointer appearance-none rounded-full bg-ink-faint transition-colors checked:bg-brand-600 disabled:cursor-not-allowed disabled:opacity-70"
        />
        <span
          aria-hidden="true"
          className="pointer-events-none absolute left-0.5 top-0.5 size-5 rounded-full bg-white shadow-sm transition-transform peer-checked:translate-x-5"
        />
      </span>
    </li>
  );
}

/**
 * A "Cookie-Einstellungen" button for the footer or any notice that needs
 * consent. Without JavaScript it reloads this page with `?cookie-settings=1`
 * (keeping the page's other query parameters); with it, it opens the dialog in place.
 */
export function CookieSettingsButton({ className, children }: { className?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <form
      method="get"
      action={location.pathname}
      className="contents"
      onSubmit={(event) => {
        event.preventDefault();
        openCookieSettings();
      }}
    >
      <HiddenSearchParams params={withoutConsentParams(location.search)} />
      <button type="submit" name={COOKIE_SETTINGS_PARAM} value="1" className={className}>
        {children ?? t('footer.cookieSettings')}
      </button>
    </form>
  );
}
