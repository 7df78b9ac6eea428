import type { CalculatorSection } from '~/calculator/fields';
import { calculatorPickers } from '~/calculator/pickers';
import type { PickerState } from '~/calculator/pickers';
import { LibraryPickers } from './library-pickers';
import { LinePicker, type LinePickerProps } from './line-picker';
import { PrintSheetUsed, type PrintSheetUsedProps } from './print-sheet-used';
import { ProductImageField } from './product-image-field';
import type { SaveError } from '~/calculator/page';
import type { ProjectUsage } from '~/domain/projects';
import { FloatingSaveButton, ProjectSavePanel } from './project-save';

export type SignedInPartProps =
  | { part: 'pickers'; section: CalculatorSection; state: PickerState; submitted: Record<string, string> | undefined }
  | { part: 'image'; initialPath: string; serverError: string | null }
  | { part: 'saveBar'; saved: boolean; saving: boolean }
  | { part: 'save'; saved: boolean; saving: boolean; unsaved: boolean; error: SaveError | null; projectId?: string | null; usage?: ProjectUsage | null }
  | ({ part: 'linePicker' } & LinePickerProps)
  | ({ part: 'printUsed' } & PrintSheetUsedProps);

/**
 * The calculator's parts only a signed-in user sees: the library pickers, the
 * product image field and the save panel. One module, the default export of a
 * chunk of its own (React.lazy in the calculator route), so a visitor's first
 * visit never downloads them; one component for all three, so the page waits
 * for one chunk once.
 */
export default function SignedInPart(props: SignedInPartProps) {
  switch (props.part) {
    case 'pickers':
      return <LibraryPickers section={props.section} state={pickersAfter(props.state, props.submitted)} />;
    case 'image':
      return <ProductImageField initialPath={props.initialPath} serverError={props.serverError} />;
    case 'linePicker':
      return <LinePicker {...props} />;
    case 'printUsed':
      return <PrintSheetUsed pickers={props.pickers} imagePath={props.imagePath} submitted={props.submitted} projectName={props.projectName} filamentLines={props.filamentLines} />;
    case 'saveBar':
      return <FloatingSaveButton saved={props.saved} saving={props.saving} />;
    case 'save':
      return <ProjectSavePanel saved={props.saved} saving={props.saving} unsaved={props.unsaved} error={props.error} projectId={props.projectId} usage={props.usage ?? null} />;
  }
}

/** After a refused save (no JS) the pickers show what was submitted, not the address's choice. */
function pickersAfter(pickers: PickerState, submitted: Record<string, string> | undefined): PickerState {
  if (!submitted) return pickers;
  const selected = { ...pickers.selected };
  for (const picker of calculatorPickers) {
    const id = submitted[picker.param] ?? '';
    selected[picker.id] = pickers.items[picker.id].some((item) => item.id === id) ? id : '';
  }
  return { ...pickers, selected };
}
