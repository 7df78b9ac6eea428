import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { calculatorPickers, type PickerState } from '~/calculator/pickers';
import { productImageUrl } from '~/domain/product-images';

export type PrintSheetUsedProps = {
  /** The library items chosen in the pickers (null: no library loaded). */
  pickers: PickerState | null;
  /** The product image's path in the form, printed when there is one. */
  imagePath: string;
  /** The hidden fields of a refused save or a no-JS image upload: what was submitted, not the address's choice. */
  submitted: Record<string, string> | undefined;
  projectName: string;
};

/**
 * The print sheet's "Verwendet" block (issue 24 §4): the product image and the
 * library items chosen in the pickers, by name. Only signed-in users have
 * either, so it is one of their lazily loaded parts (signed-in-parts.tsx),
 * rendered inside the sheet (print-sheet.tsx) like the filament lines.
 */
export function PrintSheetUsed({ pickers, imagePath, submitted, projectName }: PrintSheetUsedProps) {
  const used = useUsedItems(pickers, imagePath, submitted);
  return <UsedItems image={productImageUrl(used.imagePath)} projectName={projectName} items={used.items} />;
}

type UsedItem = { picker: string; name: string };

/**
 * What the sheet names: the chosen library items and the image. The server renders
 * the loader's choice; with scripts the form's current selects and image field are read
 * on every change and once more just before printing (`beforeprint`, committed at once),
 * so the paper shows what the seller sees.
 */
function useUsedItems(pickers: PickerState | null, imagePath: string, submitted: Record<string, string> | undefined): { items: UsedItem[]; imagePath: string } {
  const initial: Record<string, string> = { productImagePath: imagePath };
  if (pickers) for (const picker of calculatorPickers) initial[picker.param] = (submitted ? submitted[picker.param] : pickers.selected[picker.id]) ?? '';
  const [live, setLive] = useState<Record<string, string> | null>(null);
  useEffect(() => {
    const form = document.getElementById('calculator-form');
    if (!(form instanceof HTMLFormElement)) return;
    const read = () => {
      const data = new FormData(form);
      const names = ['productImagePath', ...calculatorPickers.map((picker) => picker.param)];
      setLive(Object.fromEntries(names.map((name) => [name, typeof data.get(name) === 'string' ? String(data.get(name)) : ''])));
    };
    const beforePrint = () => flushSync(read);
    form.addEventListener('change', read);
    window.addEventListener('beforeprint', beforePrint);
    // An uploaded or removed image changes a hidden input's value (its attribute), which fires no event.
    const observer = new MutationObserver(read);
    observer.observe(form, { subtree: true, attributes: true, attributeFilter: ['value'] });
    return () => {
      observer.disconnect();
      form.removeEventListener('change', read);
      window.removeEventListener('beforeprint', beforePrint);
    };
  }, []);
  const current = live ?? initial;
  const items = pickers
    ? calculatorPickers.flatMap((picker) => {
        const item = pickers.items[picker.id].find((candidate) => candidate.id === current[picker.param]);
        return item ? [{ picker: picker.id, name: item.name }] : [];
      })
    : [];
  return { items, imagePath: current.productImagePath ?? '' };
}

function UsedItems({ image, projectName, items }: { image: string | null; projectName: string; items: UsedItem[] }) {
  const { t } = useTranslation('project-tools');
  if (!image && items.length === 0) return null;
  return (
    <div className="mt-3 flex items-start gap-4" data-print-used>
      {image ? (
        <img src={image} alt={t('printSheet.imageAlt', { name: projectName.trim() || t('printSheet.untitled') })} className="h-28 w-28 shrink-0 rounded-md object-cover" data-print-image />
      ) : null}
      {items.length > 0 ? (
        <div className="min-w-0 flex-1">
          <h2 className="font-semibold">{t('printSheet.used')}</h2>
          <dl className="mt-1 grid grid-cols-2 gap-x-6 text-xs">
            {items.map(({ picker, name }) => (
              <div key={picker} className="flex justify-between gap-2 border-b border-surface-line py-0.5">
                <dt>{t(`printSheet.${picker}`)}</dt>
                <dd className="text-right break-words" data-print-used-item={picker}>
                  {name}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
    </div>
  );
}
