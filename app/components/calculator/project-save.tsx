import { Link } from '@remix-run/react';
import { CircleAlert, CircleCheck, FileText, Save } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '~/components/toaster';
import { useHydrated } from '~/lib/use-hydrated';
import type { QuoteIntent, SaveError, SaveIntent } from '~/calculator/page';
import type { ProjectUsage } from '~/domain/projects';
import { ProjectUsageNote } from '~/components/projects/project-usage';

const SAVE_PANEL_ID = 'projekt-speichern';
const QUOTE_BUTTON_CLASS =
  'flex w-full items-center justify-center gap-2 rounded-md border border-surface-line px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-surface-subtle disabled:opacity-60';

// Not imported from ./project-fields: a value from there would make this chunk import the calculator route's chunk.
const SAVE_INTENT: SaveIntent = 'save';
const QUOTE_INTENT: QuoteIntent = 'saveAndQuote';

/**
 * Spec §2/§4: 'Projekt speichern' (first save), 'Projekt aktualisieren' (later
 * saves), 'Speichert...' while pending, 'Als Projekt gespeichert' once saved, and
 * on small screens a floating round button. Both are submit buttons of the
 * calculator form with `formmethod="post"`, so saving works without JavaScript.
 */
export function ProjectSavePanel({
  saved,
  saving,
  unsaved,
  error,
  projectId,
  usage = null,
}: {
  saved: boolean;
  saving: boolean;
  unsaved: boolean;
  error: SaveError | null;
  projectId?: string | null;
  /** Issue 24 §4: a free user's '2 von 3 Projekten' with the Premium link, under the button. */
  usage?: ProjectUsage | null;
}) {
  const { t } = useTranslation('projects');
  const label = saving ? t('calculator.saving') : saved ? t('calculator.update') : t('calculator.save');

  const hydrated = useHydrated();
  // With JavaScript a refusal is the §8 toast; without, the box below says the same (never both at once).
  useEffect(() => {
    if (error) showToast({ type: 'error', title: error.title, description: error.text, action: error.action });
  }, [error]);

  // Both save buttons (in the column and, on small screens, floating) submit the calculator form the same way.
  // Without JavaScript the answer is a new page: it opens at this panel, where the refusal or "gespeichert" shows,
  // not at the top (on a phone the panel is below the whole form).
  const formAction = hydrated ? '/calculator' : `/calculator#${SAVE_PANEL_ID}`;
  const saveButtonProps = { type: 'submit', formMethod: 'post', formAction, name: 'intent', value: SAVE_INTENT } as const;

  return (
    <div id={SAVE_PANEL_ID} className="scroll-mt-4 space-y-3">
      <button
        {...saveButtonProps}
        disabled={saving}
        data-save-project
        className="flex w-full items-center justify-center gap-2 rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        <Save aria-hidden="true" className="h-4 w-4" />
        {label}
      </button>
      <ProjectUsageNote usage={usage} />
      {saved && !unsaved ? (
        <p data-project-saved className="flex items-center gap-1.5 text-sm text-success-600">
          <CircleCheck aria-hidden="true" className="h-4 w-4" />
          {t('calculator.saved')}
        </p>
      ) : null}
      {/* Issue 26: a quote for a customer from the calculation. Saved and unchanged: straight to the new quote.
          Not saved, or changed: the button saves it first (as the save button would, free plan's limit included)
          and then opens the new quote; a submit button of the calculator form, so it works without JavaScript. */}
      {saved && !unsaved && projectId ? (
        <Link to={`/angebote/neu?project=${projectId}`} data-create-quote className={QUOTE_BUTTON_CLASS}>
          <FileText aria-hidden="true" className="h-4 w-4" />
          {t('calculator.createQuote')}
        </Link>
      ) : (
        <div>
          <button {...saveButtonProps} value={QUOTE_INTENT} disabled={saving} data-create-quote aria-describedby="angebot-speichert-zuerst" className={QUOTE_BUTTON_CLASS}>
            <FileText aria-hidden="true" className="h-4 w-4" />
            {t('calculator.createQuote')}
          </button>
          <p id="angebot-speichert-zuerst" className="mt-1 text-xs text-ink-muted">
            {t(saved ? 'calculator.createQuoteUpdatesFirst' : 'calculator.createQuoteSavesFirst')}
          </p>
        </div>
      )}
      {unsaved ? (
        <p data-project-unsaved className="rounded-md bg-surface-subtle px-3 py-2 text-sm text-ink-muted">
          {t('calculator.unsaved')}
        </p>
      ) : null}
      {error && !hydrated ? (
        <div role="alert" data-save-error className="flex items-start gap-2 rounded-md border border-danger-600/40 bg-danger-50 px-3 py-2.5 text-sm text-danger-700">
          <CircleAlert aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          <div>
            <p className="font-semibold">{error.title}</p>
            <p>{error.text}</p>
            {error.action ? (
              <Link to={error.action.href} className="mt-2 inline-flex rounded-md bg-brand-600 px-3 py-1.5 font-semibold text-white hover:bg-brand-700">
                {error.action.label}
              </Link>
            ) : null}
          </div>
        </div>
      ) : null}
    </div>
  );
}

/**
 * Spec §2: on small screens a round save button. Issue 24 §3: it sits at the end of the
 * price bar at the bottom of the screen (calculator.tsx), not floating over figures and
 * unit labels. The same submit as the panel's button, so it works without JavaScript.
 */
export function FloatingSaveButton({ saved, saving }: { saved: boolean; saving: boolean }) {
  const { t } = useTranslation('projects');
  const hydrated = useHydrated();
  const label = saving ? t('calculator.saving') : saved ? t('calculator.update') : t('calculator.save');
  return (
    <button
      type="submit"
      formMethod="post"
      formAction={hydrated ? '/calculator' : `/calculator#${SAVE_PANEL_ID}`}
      name="intent"
      value={SAVE_INTENT}
      disabled={saving}
      aria-label={label}
      title={label}
      data-save-project-floating
      className="flex w-14 shrink-0 items-center justify-center rounded-card bg-brand-600 text-white shadow-lg hover:bg-brand-700 disabled:opacity-60 print:hidden"
    >
      <Save aria-hidden="true" className="h-6 w-6" />
    </button>
  );
}
