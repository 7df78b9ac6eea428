import { useLocation } from '@remix-run/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SlicerImportInfo } from '~/slicer/import-link';
import type { SlicerImportView } from '~/slicer/import-view';
import { useHydrated } from '~/utils/use-hydrated';

/** The no-JS upload form's id; the file input and button sit in 'Projekt-Grunddaten' and point to it. */
export const SLICER_FORM_ID = 'slicer-import-form';
const ACCEPT = '.gcode,.gco,.g,.bgcode,.3mf,.ufp';

export type SlicerNoticeView =
  | { kind: 'info'; info: SlicerImportInfo; view: SlicerImportView }
  | { kind: 'error'; code: string; params?: Record<string, string | number> };

/**
 * "Aus Slicer-Datei übernehmen": with scripts the file is read here, in the
 * browser, and never uploaded (the readers load on first use); without them
 * the file is posted to the calculator's action, which streams it and
 * redirects back with the values and this notice in the link. Formatting the
 * notice happens on the server or in the lazy chunk: this file stays small.
 */
export function SlicerImport({ initial }: { initial: SlicerNoticeView | null }) {
  const { t } = useTranslation('calculator');
  const hydrated = useHydrated();
  const { search } = useLocation();
  const [notice, setNotice] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);

  async function run(task: (reader: typeof import('~/slicer/browser')) => Promise<SlicerImportInfo | null>) {
    setBusy(true);
    try {
      const reader = await import('~/slicer/browser');
      const info = await task(reader);
      if (!info) return;
      setNotice({ kind: 'info', info, view: reader.buildImportView(info, t, search) });
      const form = document.getElementById('calculator-form') as HTMLFormElement;
      let input: HTMLInputElement | undefined;
      for (const [name, value] of Object.entries(reader.importedFieldValues(info))) {
        input = form.elements.namedItem(name) as HTMLInputElement;
        input.value = value;
      }
      // The form recalculates on input events, as if the values had been typed.
      input?.dispatchEvent(new Event('input', { bubbles: true }));
    } catch {
      setNotice({ kind: 'error', code: 'readFailed' });
    } finally {
      setBusy(false);
    }
  }

  const read = (file: File | undefined) =>
    file &&
    run(async (reader) => {
      const result = await reader.readSlicerFile(file);
      if (result.ok) return reader.importInfoFromSummary(result.summary);
      setNotice({ kind: 'error', ...result.error });
      return null;
    });

  const drop = hydrated && {
    onDragOver: (event: React.DragEvent) => (event.preventDefault(), setDragging(true)),
    onDragLeave: () => setDragging(false),
    onDrop: (event: React.DragEvent) => (event.preventDefault(), setDragging(false), read(event.dataTransfer.files[0])),
  };

  return (
    <div
      id="slicer-import"
      data-slicer-import
      {...drop}
      className={`rounded-md border border-dashed p-3 ${dragging ? 'border-brand-600 bg-brand-50' : 'border-surface-line bg-surface-subtle'}`}
    >
      <label htmlFor="slicer-file" className="text-sm font-medium">
        {t('slicer.title')}
      </label>
      <p id="slicer-file-hint" className="mt-1 text-xs text-ink-faint">
        {t('slicer.hint')}
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <input
          id="slicer-file"
          type="file"
          name="file"
          form={SLICER_FORM_ID}
          accept={ACCEPT}
          aria-describedby="slicer-file-hint"
          disabled={busy}
          onChange={hydrated ? (event) => (read(event.target.files?.[0]), (event.target.value = '')) : undefined}
          className="block w-full min-w-0 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-600 file:px-3 file:py-1.5 file:text-white sm:w-auto"
        />
        {hydrated ? null : (
          <button type="submit" form={SLICER_FORM_ID} className="rounded-md border border-brand-600 px-3 py-1.5 text-sm font-medium text-brand-700">
            {t('slicer.submit')}
          </button>
        )}
      </div>
      {busy ? <p role="status" className="mt-2 text-sm">{t('slicer.reading')}</p> : null}
      {notice?.kind === 'error' ? (
        <p role="alert" data-slicer-error className="mt-2 text-sm text-danger-700">
          {t(`slicer.errors.${notice.code}`, notice.params)}
        </p>
      ) : notice ? (
        <div role="status" data-slicer-info className="mt-2 rounded-md bg-brand-50 px-3 py-2 text-sm text-brand-900">
          <p>{notice.view.message}</p>
          {notice.view.warning ? <p className="mt-1 text-xs">{notice.view.warning}</p> : null}
          {notice.view.plates ? (
            <ul aria-label={t('slicer.plates')} className="mt-2 flex flex-wrap gap-1.5">
              {notice.view.plates.map((choice) => (
                <li key={choice.href}>
                  <a
                    href={choice.href}
                    aria-current={choice.current || undefined}
                    // With scripts the choice fills the form in place, keeping what was typed since.
                    onClick={hydrated ? (event) => (event.preventDefault(), run(async () => ({ ...notice.info, plate: choice.plate }))) : undefined}
                    className={`inline-block rounded-md border px-2 py-1 text-xs ${choice.current ? 'border-brand-600 bg-brand-600 text-white' : 'border-brand-200 bg-surface text-brand-700'}`}
                  >
                    {choice.label}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
