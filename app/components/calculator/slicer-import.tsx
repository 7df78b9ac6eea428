import { useLocation } from '@remix-run/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickerItem } from '~/calculator/pickers';
import type { ImportContext } from '~/slicer/browser';
import type { SlicerNoticeView } from '~/slicer/import-view';
import { useHydrated } from '~/lib/use-hydrated';

/** The no-JS import's own route: it streams up to 1 GB, which no other calculator post may. */
export const SLICER_IMPORT_PATH = '/calculator/slicer-import';

/**
 * "Aus Slicer-Datei übernehmen": with scripts the file is read in the browser
 * and never uploaded; without them it is posted to the calculator's action,
 * which streams it and redirects back with the values and this notice in the
 * link. Reading, filling the form and formatting the notice live in the lazy
 * chunk (~/slicer/browser) or on the server: this file only renders.
 */
export function SlicerImport({ initial, library = null }: { initial: SlicerNoticeView | null; /** Issue 23: the signed-in seller's active filaments, matched to the imported lines. */ library?: readonly PickerItem[] | null }) {
  const { t } = useTranslation('calculator');
  const hydrated = useHydrated();
  const { search } = useLocation();
  const [notice, setNotice] = useState(initial);
  const [busy, setBusy] = useState(false);

  const act = (task: (reader: typeof import('~/slicer/browser'), context: ImportContext) => unknown) =>
    import('~/slicer/browser')
      .then((reader) => task(reader, { t, search, show: setNotice, busy: setBusy, library }))
      .catch(() => (setBusy(false), setNotice({ kind: 'error', code: 'readFailed' })));
  const read = (file: File | undefined) => file && act((reader, context) => reader.importFile(context, file));

  return (
    <div
      id="slicer-import"
      data-slicer-import
      onDragOver={hydrated ? (event) => event.preventDefault() : undefined}
      onDrop={hydrated ? (event) => (event.preventDefault(), read(event.dataTransfer.files[0])) : undefined}
      className="rounded-md border border-dashed border-brand-200 bg-surface-subtle p-3"
    >
      <label htmlFor="slicer-file" className="text-sm font-medium">
        {t('slicer.title')}
      </label>
      <p id="slicer-file-hint" className="mt-1 text-xs text-ink-faint">
        {t('slicer.hint')}
      </p>
      {/* One row at every width: the no-JS button beside the file field, so its leaving on hydration moves nothing below (CLS 0, issue 25). */}
      <div className="mt-2 flex items-center gap-2">
        <input
          id="slicer-file"
          type="file"
          name="file"
          accept=".gcode,.gco,.g,.bgcode,.3mf,.ufp"
          aria-describedby="slicer-file-hint"
          disabled={busy}
          onChange={hydrated ? (event) => (read(event.target.files?.[0]), (event.target.value = '')) : undefined}
          className="min-w-0 flex-1 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-600 file:px-3 file:py-1.5 file:text-white sm:w-auto"
        />
        {hydrated ? null : (
          // Submits the calculator form itself, so what was typed (and the open project) travels with the file.
          <button
            type="submit"
            formAction={SLICER_IMPORT_PATH}
            formMethod="post"
            formEncType="multipart/form-data"
            className="shrink-0 rounded-md border border-brand-600 px-3 py-1.5 text-sm text-brand-700"
          >
            {t('slicer.submit')}
          </button>
        )}
      </div>
      {busy ? <p role="status">{t('slicer.reading')}</p> : null}
      {notice?.kind === 'error' ? (
        <p role="alert" data-slicer-error className="mt-2 text-sm text-danger-700">
          {t(`slicer.errors.${notice.code}`, notice.params)}
        </p>
      ) : notice ? (
        <div role="status" data-slicer-info className="mt-2 rounded-md bg-brand-50 px-3 py-2 text-sm">
          <p>{notice.view.message}</p>
          {notice.view.warning ? <p className="text-xs">{notice.view.warning}</p> : null}
          {notice.view.lines ? <p className="whitespace-pre-line text-xs" data-slicer-lines>{notice.view.lines}</p> : null}
          {notice.view.purge ? <p className="text-xs" data-slicer-purge>{notice.view.purge}</p> : null}
          {notice.view.timeCapped ? (
            <p data-slicer-time-capped className="mt-1 font-medium text-danger-700">
              {notice.view.timeCapped}
            </p>
          ) : null}
          {notice.view.plates ? (
            <ul aria-label={t('slicer.plates')} className="mt-2 flex flex-wrap gap-1.5">
              {notice.view.plates.map((choice) => (
                <li key={choice.href}>
                  <a
                    href={choice.href}
                    aria-current={choice.current || undefined}
                    // With scripts the choice fills the form in place, keeping what was typed since.
                    onClick={hydrated ? (event) => (event.preventDefault(), act((reader, context) => reader.choosePlate(context, notice.info, choice.plate))) : undefined}
                    className="inline-block rounded-md border border-brand-200 bg-surface px-2 py-1 text-xs aria-[current=true]:bg-brand-600 aria-[current=true]:text-white"
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
