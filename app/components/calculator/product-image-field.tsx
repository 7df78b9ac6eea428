import { ImagePlus, Loader2, Trash2, Upload } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PRODUCT_IMAGE_MAX_BYTES } from '~/domain/limits';
import { useHydrated } from '~/lib/use-hydrated';
import type { RemoveImageIntent, UploadIntent } from '~/calculator/page';

// Repeated, typed by the page's words, rather than imported from the route's chunk (this part is loaded apart).
const UPLOAD_INTENT: UploadIntent = 'uploadImage';
const REMOVE_IMAGE_INTENT: RemoveImageIntent = 'removeImage';

const ACCEPTED_TYPES = ['image/jpeg', 'image/png'];

/**
 * The product image of the calculation (spec §2, §4 "Image upload"). Its path
 * travels in the calculator form as `productImagePath` and is saved with the project.
 *
 * With JavaScript: choose or drop a file, 'Lade hoch...' while it goes to
 * POST /api/images/upload, then a preview with a remove button.
 * Without: the file input and an upload button that posts the whole form
 * (multipart) to the calculator's action, which answers with the preview and
 * every other input kept; removing posts the form too.
 */
export function ProductImageField({ initialPath, serverError }: { initialPath: string; serverError: string | null }) {
  const { t } = useTranslation('projects');
  const hydrated = useHydrated();
  const [path, setPath] = useState(initialPath);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(serverError);
  const [dragOver, setDragOver] = useState(false);

  async function upload(file: File) {
    setError(null);
    // The server checks the bytes; these checks only save a pointless upload.
    if (!ACCEPTED_TYPES.includes(file.type)) return setError(t('image.wrongType'));
    if (file.size > PRODUCT_IMAGE_MAX_BYTES) return setError(t('image.tooLarge'));
    setUploading(true);
    try {
      const body = new FormData();
      body.append('image', file);
      const response = await fetch('/api/images/upload', { method: 'POST', body });
      const answer = (await response.json().catch(() => ({}))) as { imagePath?: string; message?: string };
      if (response.ok && answer.imagePath) setPath(answer.imagePath);
      else setError(answer.message ?? t('image.failed'));
    } catch {
      setError(t('image.failed'));
    } finally {
      setUploading(false);
    }
  }

  return (
    <div data-product-image className="sm:col-span-2">
      <input type="hidden" name="productImagePath" value={path} />
      <p className="mb-1.5 text-sm font-medium text-ink">{t('image.label')}</p>
      {path ? (
        <div className="flex items-start gap-3">
          <img src={path} alt={t('image.preview')} data-product-image-preview className="h-28 w-28 rounded-md border border-surface-line object-cover" />
          {hydrated ? (
            <button type="button" onClick={() => setPath('')} className={removeButton}>
              <Trash2 aria-hidden="true" className="h-4 w-4" />
              {t('image.remove')}
            </button>
          ) : (
            <button type="submit" formMethod="post" formAction="/calculator" name="intent" value={REMOVE_IMAGE_INTENT} className={removeButton}>
              <Trash2 aria-hidden="true" className="h-4 w-4" />
              {t('image.remove')}
            </button>
          )}
        </div>
      ) : (
        <div
          data-drop-zone
          data-drag-over={dragOver ? true : undefined}
          onDragOver={(event) => {
            event.preventDefault();
            if (!uploading) setDragOver(true);
          }}
          onDragLeave={() => setDragOver(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragOver(false);
            const file = event.dataTransfer.files[0];
            if (file && !uploading) void upload(file);
          }}
          className={`min-w-0 rounded-md border-2 border-dashed px-3 py-4 text-sm transition-colors ${
            dragOver ? 'border-brand-600 bg-brand-50' : 'border-surface-line bg-surface-subtle'
          }`}
        >
          <label className="flex w-full min-w-0 flex-col items-center gap-2 text-center text-ink-muted">
            {uploading ? <Loader2 aria-hidden="true" className="h-6 w-6 animate-spin" /> : <ImagePlus aria-hidden="true" className="h-6 w-6" />}
            <span>{uploading ? t('image.uploading') : t('image.drop')}</span>
            <input
              type="file"
              name="image"
              accept="image/jpeg,image/png"
              disabled={uploading}
              aria-label={t('image.choose')}
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                event.currentTarget.value = '';
                if (file) void upload(file);
              }}
              // A file input is as wide as its button and file name unless told otherwise (a 320 px phone).
              className="block w-full min-w-0 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-600 file:px-3 file:py-1.5 file:text-white"
            />
          </label>
          {hydrated ? null : (
            <button
              type="submit"
              formMethod="post"
              formAction="/calculator"
              formEncType="multipart/form-data"
              name="intent"
              value={UPLOAD_INTENT}
              className="mt-3 inline-flex items-center gap-1.5 rounded-md border border-brand-600 px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-brand-50"
            >
              <Upload aria-hidden="true" className="h-4 w-4" />
              {t('image.upload')}
            </button>
          )}
        </div>
      )}
      {error ? (
        <p role="alert" data-image-error className="mt-2 rounded-md border border-danger-600/40 bg-danger-50 px-3 py-2 text-sm text-danger-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const removeButton =
  'inline-flex items-center gap-1.5 rounded-md border border-surface-line bg-surface px-3 py-2 text-sm font-medium text-ink hover:bg-surface-subtle';
