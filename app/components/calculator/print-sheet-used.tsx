import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { calculatorPickers, type PickerState } from '~/calculator/pickers';
import { productImageUrl } from '~/domain/product-images';
import { formatDecimalInput } from '~/lib/number';

export type PrintSheetUsedProps = {
  /** The library items chosen in the pickers (null: no library loaded). */
  pickers: PickerState | null;
  /** The product image's path in the form, printed when there is one. */
  imagePath: string;
  /** The hidden fields of a refused save or a no-JS image upload: what was submitted, not the address's choice. */
  submitted: Record<string, string> | undefined;
  projectName: string;
  /** Every filament line's name (library filament or label, '' = none) and grams, for 'Verwendet' (several lines only). */
  filamentLines?: ReadonlyArray<{ name: string; grams: number }>;
};

/**
 * The print sheet's "Verwendet" block (issue 24 §4): the product image and the
 * library items chosen in the pickers, by name. Only signed-in users have
 * either, so it is one of their lazily loaded parts (signed-in-parts.tsx),
 * rendered inside the sheet (print-sheet.tsx) like the filament lines.
 */
export function PrintSheetUsed({ pickers, imagePath, submitted, projectName, filamentLines = [] }: PrintSheetUsedProps) {
  const used = useUsedItems(pickers, imagePath, submitted);
  return <UsedItems image={productImageUrl(used.imagePath)} projectName={projectName} items={withFilamentLines(used.items, filamentLines)} />;
}

type UsedItem = { picker: string; name: string; line?: number };

/**
 * With several filament lines (issue 23) 'Verwendet' names each line's filament (its library
 * name or label, and grams) instead of line 1's picker alone, when any line has a name.
 */
function withFilamentLines(items: UsedItem[], lines: ReadonlyArray<{ name: string; grams: number }>): UsedItem[] {
  if (lines.length < 2 || !lines.some(({ name }) => name !== '')) return items;
  const perLine = lines.map(({ name, grams }, index) => ({ picker: 'filament', line: index + 1, name: `${name ? `${name} · ` : ''}${formatDecimalInput(grams)}\u00A0g` }));
  // In the pickers' order: after the printer, where line 1's filament stood.
  const others = items.filter(({ picker }) => picker !== 'filament');
  const afterPrinter = others.findIndex(({ picker }) => picker !== 'printer');
  const cut = afterPrinter === -1 ? others.length : afterPrinter;
  return [...others.slice(0, cut), ...perLine, ...others.slice(cut)];
}

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
            {items.map(({ picker, name, line }) => (
              <div key={line ? `${picker}-${line}` : picker} className="flex justify-between gap-2 border-b border-surface-line py-0.5">
                <dt>{line ? t('printSheet.filamentLine', { n: line }) : t(`printSheet.${picker}`)}</dt>
                {line ? (
                  <dd className="text-right break-words" data-print-used-filament-line={line}>
                    {name}
                  </dd>
                ) : (
                  <dd className="text-right break-words" data-print-used-item={picker}>
                    {name}
                  </dd>
                )}
              </div>
            ))}
          </dl>
        </div>
      ) : null}
    </div>
  );
}
