/**
 * The calculator's fields, declared once (issue 9 §2).
 *
 * Everything else is derived from this table: the zod schema (./schema.ts),
 * the form inputs (components/calculator/calculator-form-fields.tsx), the
 * mapping to the engine's input (`toEngineInput`), the shared link, the
 * export, the project payload and the printer entity's defaults.
 *
 * Adding a field: one entry here (in form order), its use in ./engine.ts and
 * its texts in public/locales/de/calculator.json (`fields.<name>.label`,
 * optional `.unit`/`.hint`/`.placeholder`, and the error keys named below).
 *
 * Browser-safe: no Node, React or zod imports.
 */
import { formatDecimalInput, formatMoneyInput } from '../lib/number';

/** The form's cards, in page order. */
export const calculatorSections = [
  'basics',
  'pricing',
  'printerFilament',
  'packagingShipping',
  'marketplace',
  'labor',
] as const;
export type CalculatorSection = (typeof calculatorSections)[number];

type Travels = {
  /** Part of `/calculator?<fields>`: the shared link, the no-JS form submit and the export's query. */
  link: boolean;
  /** Written to the JSON export's `inputs`. */
  export: boolean;
  /** Name in the project save payload (spec §3), or false when not saved with a project. */
  project: string | false;
};

type Rendered = {
  /** The card the input sits in; absent = not a visible input (set by pickers/uploads). */
  section?: CalculatorSection;
  /** Inputs of one group share a fieldset with the group's label (`fields.<group>.label`). */
  group?: 'printTime';
  /** Takes the whole row of its card. */
  wide?: boolean;
};

export type NumberFieldSpec = Travels &
  Rendered & {
    kind: 'number';
    default: number;
    min: number;
    /** Omitted: the common cap `MAX_NUMBER` (absurd input gets a message, not Infinity). */
    max?: number;
    integer?: boolean;
    /** Arrow-key step (spec §5 "Input steps"). */
    step: number;
    /** Quick choices the browser offers in a list under the input. */
    suggestions?: readonly number[];
    /** Printed as money (2 decimals) on the cost sheet; otherwise as a plain German number. */
    money?: boolean;
    /** Value when the field is present but empty; omitted = "required". */
    whenEmpty?: number;
    /** Passed to the engine under the same name (false for the parts of a combined value). */
    engine: boolean;
    /** Optional in the engine's input; absent means the default, which changes no figure. */
    engineOptional?: true;
    /** Error keys (namespace `calculator`, object `errors`) for too small / too large. */
    errors: { min: string; max?: string };
  };

export type TextFieldSpec = Travels &
  Rendered & {
    kind: 'text';
    default: string;
    maxLength: number;
    errors: { tooLong: string };
  };

/**
 * A checkbox. Unchecked boxes are not submitted, and a missing field takes its
 * default, so a boolean field's default must be false.
 */
export type BooleanFieldSpec = Travels &
  Rendered & {
    kind: 'boolean';
    default: false;
    engine: boolean;
    engineOptional?: true;
  };

export type FieldSpec = NumberFieldSpec | TextFieldSpec | BooleanFieldSpec;

/** Cap for fields the spec leaves open-ended. */
export const MAX_NUMBER = 1_000_000;

const everywhere = { link: true, export: true } as const;
const hidden = { link: false, export: false } as const;

export const calculatorFields = {
  projectName: {
    kind: 'text', default: '', maxLength: 200, section: 'basics', wide: true,
    ...everywhere, project: 'name',
    errors: { tooLong: 'projectNameTooLong' },
  },
  quantity: {
    kind: 'number', default: 1, min: 1, max: 100_000, integer: true, step: 1, section: 'basics',
    ...everywhere, project: 'quantity', engine: true,
    errors: { min: 'quantityMin', max: 'quantityMax' },
  },
  filamentWeight: {
    kind: 'number', default: 25, min: 0.1, step: 0.1, section: 'basics',
    ...everywhere, project: 'filamentWeight', engine: true,
    errors: { min: 'filamentWeightMin' },
  },
  // Spec §5: print time as hours + minutes, stored and calculated as decimal hours (`printTime`).
  printTimeHours: {
    kind: 'number', default: 3, min: 0, max: 99, integer: true, step: 1, section: 'basics', group: 'printTime',
    ...everywhere, project: false, engine: false,
    errors: { min: 'printTimeHoursRange', max: 'printTimeHoursRange' },
  },
  printTimeMinutes: {
    kind: 'number', default: 30, min: 0, max: 59, integer: true, step: 1, section: 'basics', group: 'printTime',
    ...everywhere, project: false, engine: false,
    errors: { min: 'printTimeMinutesRange', max: 'printTimeMinutesRange' },
  },
  profitMargin: {
    kind: 'number', default: 25, min: 0, max: 200, step: 1, section: 'pricing',
    ...everywhere, project: 'profitMargin', engine: true,
    errors: { min: 'profitMarginRange', max: 'profitMarginRange' },
  },
  // Spec §3 keeps it out of the save payload; issue 12 adds it (a seller at 7 % or 0 % must get it back).
  vatPercent: {
    // Issue 13 §3: the German standard and reduced rates as quick choices.
    kind: 'number', default: 19, min: 0, max: 100, step: 1, section: 'pricing', suggestions: [19, 7],
    ...everywhere, project: 'vatPercent', engine: true,
    errors: { min: 'vatPercentRange', max: 'vatPercentRange' },
  },
  // Issue 13 §3: § 19 UStG — no VAT is charged; the engine then calculates with 0 %.
  smallBusiness: {
    kind: 'boolean', default: false, section: 'pricing',
    ...everywhere, project: 'smallBusiness', engine: true, engineOptional: true,
  },
  // Net (spec: its profit is target − net costs); empty means "no target price" (0).
  targetPrice: {
    kind: 'number', default: 0, whenEmpty: 0, min: 0, step: 0.01, money: true, section: 'pricing', wide: true,
    ...everywhere, project: 'targetPrice', engine: true,
    errors: { min: 'targetPriceMin' },
  },
  filamentPricePerKg: {
    kind: 'number', default: 25, min: 0.01, step: 0.1, money: true, section: 'printerFilament',
    ...everywhere, project: 'filamentPricePerKg', engine: true,
    errors: { min: 'filamentPricePerKgMin' },
  },
  printerWattage: {
    kind: 'number', default: 200, min: 1, step: 1, section: 'printerFilament',
    ...everywhere, project: 'printerWattage', engine: true,
    errors: { min: 'printerWattageMin' },
  },
  electricityRate: {
    kind: 'number', default: 0.32, min: 0.01, step: 0.01, money: true, section: 'printerFilament',
    ...everywhere, project: 'electricityRate', engine: true,
    errors: { min: 'electricityRateMin' },
  },
  printerCost: {
    kind: 'number', default: 300, min: 0, step: 10, money: true, section: 'printerFilament',
    ...everywhere, project: 'printerCost', engine: true,
    errors: { min: 'printerCostMin' },
  },
  printerLifetimeHours: {
    kind: 'number', default: 3000, min: 1, step: 100, section: 'printerFilament',
    ...everywhere, project: 'printerLifetimeHours', engine: true,
    errors: { min: 'printerLifetimeHoursMin' },
  },
  // Issue 13 §3: a failed print costs its material and machine time again. Below 100 %:
  // at 100 % no print succeeds and the surcharge divides by zero.
  failureRate: {
    kind: 'number', default: 0, min: 0, max: 99.99, step: 1, section: 'printerFilament',
    ...everywhere, project: 'failureRate', engine: true, engineOptional: true,
    errors: { min: 'failureRateRange', max: 'failureRateRange' },
  },
  packagingCost: {
    kind: 'number', default: 0.5, min: 0, step: 0.01, money: true, section: 'packagingShipping',
    ...everywhere, project: 'packagingCost', engine: true,
    errors: { min: 'packagingCostMin' },
  },
  shippingCost: {
    kind: 'number', default: 4.95, min: 0, step: 0.01, money: true, section: 'packagingShipping',
    ...everywhere, project: 'shippingCost', engine: true,
    errors: { min: 'shippingCostMin' },
  },
  // Spec §3: the form says marketplaceFeePercent, the stored project marketplaceFeePercentage.
  marketplaceFeePercent: {
    kind: 'number', default: 5, min: 0, max: 100, step: 0.1, section: 'marketplace',
    ...everywhere, project: 'marketplaceFeePercentage', engine: true,
    errors: { min: 'marketplaceFeeRange', max: 'marketplaceFeeRange' },
  },
  marketplaceFeeFixed: {
    kind: 'number', default: 0.3, min: 0, step: 0.01, money: true, section: 'marketplace',
    ...everywhere, project: 'marketplaceFeeFixed', engine: true,
    errors: { min: 'marketplaceFeeFixedMin' },
  },
  preparationTime: {
    kind: 'number', default: 15, min: 0, step: 1, section: 'labor',
    ...everywhere, project: 'preparationTime', engine: true,
    errors: { min: 'preparationTimeMin' },
  },
  postProcessingTime: {
    kind: 'number', default: 10, min: 0, step: 1, section: 'labor',
    ...everywhere, project: 'postProcessingTime', engine: true,
    errors: { min: 'postProcessingTimeMin' },
  },
  hourlyRate: {
    kind: 'number', default: 15, min: 0.01, step: 0.5, money: true, section: 'labor',
    ...everywhere, project: 'hourlyRate', engine: true,
    errors: { min: 'hourlyRateMin' },
  },
  // Issue 23: line 1's short name (a colour, a material); lines 2… repeat it as filamentLabel2, ….
  // Saved with the project's lines, not as a payload field of its own.
  filamentLabel: { kind: 'text', default: '', maxLength: 60, ...everywhere, project: false, errors: { tooLong: 'filamentLabelTooLong' } },
  // Set by the image upload and the library pickers (signed-in users), saved with a project only.
  productImagePath: { kind: 'text', default: '', maxLength: 1000, ...hidden, project: 'productImagePath', errors: { tooLong: 'textTooLong' } },
  selectedFilament: { kind: 'text', default: '', maxLength: 200, ...hidden, project: 'selectedFilament', errors: { tooLong: 'textTooLong' } },
  selectedPrinter: { kind: 'text', default: '', maxLength: 200, ...hidden, project: 'selectedPrinter', errors: { tooLong: 'textTooLong' } },
  selectedPackaging: { kind: 'text', default: '', maxLength: 200, ...hidden, project: 'selectedPackaging', errors: { tooLong: 'textTooLong' } },
  selectedShippingProvider: {
    kind: 'text', default: '', maxLength: 200, ...hidden, project: 'selectedShippingProvider', errors: { tooLong: 'textTooLong' },
  },
  selectedMarketplace: { kind: 'text', default: '', maxLength: 200, ...hidden, project: 'selectedMarketplace', errors: { tooLong: 'textTooLong' } },
} as const satisfies Record<string, FieldSpec>;

type Fields = typeof calculatorFields;
export type AnyFieldName = keyof Fields;
type NamesWhere<C> = { [K in AnyFieldName]: Fields[K] extends C ? K : never }[AnyFieldName];

/** Fields the form shows (and the shared link carries), in form order. */
export type CalculatorFieldName = NamesWhere<{ section: CalculatorSection }>;
export type NumberFieldName = NamesWhere<{ kind: 'number' }>;
export type EngineFieldName = NamesWhere<{ engine: true }>;
type OptionalEngineName = NamesWhere<{ engineOptional: true }>;

const allNames = Object.keys(calculatorFields) as AnyFieldName[];

export function fieldSpec(name: AnyFieldName): FieldSpec {
  return calculatorFields[name];
}

/** The calculator's form fields, in form order (also the order of a shared URL). */
export const calculatorFieldNames = allNames.filter((name) => 'section' in calculatorFields[name]) as CalculatorFieldName[];

export const exportFieldNames = allNames.filter((name) => calculatorFields[name].export);

export function fieldsOfSection(section: CalculatorSection): CalculatorFieldName[] {
  return calculatorFieldNames.filter((name) => (calculatorFields[name] as Rendered).section === section);
}

/**
 * What the form's markup needs of a visible field. The page's loader sends
 * these with the data, so the table itself (and the schema) reaches the
 * browser only with the live-calculation chunk, on first use of the form.
 */
export type FieldView = {
  name: CalculatorFieldName;
  kind: FieldSpec['kind'];
  section: CalculatorSection;
  group?: 'printTime';
  wide?: boolean;
  integer?: boolean;
  money?: boolean;
  /** Quick choices offered as a datalist (VAT 19 % / 7 %). */
  suggestions?: readonly number[];
};

export const fieldViews: readonly FieldView[] = Object.freeze(
  calculatorFieldNames.map((name) => {
    const spec = calculatorFields[name] as FieldSpec & Rendered & { integer?: boolean; money?: boolean };
    const view: FieldView = { name, kind: spec.kind, section: spec.section! };
    if (spec.group) view.group = spec.group;
    if (spec.wide) view.wide = true;
    if (spec.integer) view.integer = true;
    if (spec.money) view.money = true;
    if (spec.kind === 'number' && spec.suggestions) view.suggestions = spec.suggestions;
    return view;
  }),
);

type ValueOf<S> = S extends { kind: 'number' } ? number : S extends { kind: 'boolean' } ? boolean : string;
/** Texts without an input (picker ids, image path): optional, missing and empty both mean "not given". */
type HiddenTextName = Exclude<NamesWhere<{ kind: 'text' }>, CalculatorFieldName>;

/** What the schema produces: every field with its parsed value. */
export type CalculatorFieldValues = { [K in Exclude<AnyFieldName, HiddenTextName>]: ValueOf<Fields[K]> } & {
  [K in HiddenTextName]?: string;
};

/** The engine's input: the engine fields under their own names plus the combined print time. */
export type CalculatorInput = { [K in Exclude<EngineFieldName, OptionalEngineName>]: ValueOf<Fields[K]> } & {
  [K in OptionalEngineName]?: ValueOf<Fields[K]>;
} & {
  /** decimal hours per piece (printTimeHours + printTimeMinutes / 60) */
  printTime: number;
  /**
   * Issue 23: two or more filament lines (line 1 included); absent for one line, which
   * is filamentWeight × filamentPricePerKg as always. Present, it replaces those two in the cost.
   */
  filaments?: ReadonlyArray<{ grams: number; pricePerKg: number }>;
};

/** The one place where form values become engine input. */
export function toEngineInput(
  values: Pick<CalculatorFieldValues, EngineFieldName | 'printTimeHours' | 'printTimeMinutes'> & Partial<Record<ExtraLineFieldName, unknown>>,
): CalculatorInput {
  const input: Record<string, unknown> = {};
  for (const name of allNames) {
    const spec = calculatorFields[name];
    if ('engine' in spec && spec.engine) input[name] = values[name as EngineFieldName];
  }
  input.printTime = values.printTimeHours + values.printTimeMinutes / 60;
  // One line is today's input exactly; several go to the engine as a list.
  const lines = filamentLinesOf(values);
  if (lines.length > 1) input.filaments = lines.map(({ grams, pricePerKg }) => ({ grams, pricePerKg }));
  return input as CalculatorInput;
}

/** The project save payload (spec §3 "Calculator form / project save payload"), under its stored names. */
export function toProjectPayload(values: CalculatorFieldValues): Record<string, string | number | boolean | null> {
  const payload: Record<string, string | number | boolean | null> = {};
  for (const name of allNames) {
    const spec = calculatorFields[name];
    if (spec.project === false) continue;
    const value = values[name];
    payload[spec.project] = value === undefined || (value === '' && name !== 'projectName') ? null : value;
  }
  payload.printTime = values.printTimeHours + values.printTimeMinutes / 60;
  return payload;
}

/** Every field's default as a value (numbers, texts, booleans). */
export const fieldDefaults: Readonly<CalculatorFieldValues> = Object.freeze(
  Object.fromEntries(allNames.map((name) => [name, calculatorFields[name].default])) as CalculatorFieldValues,
);

/** The printer dialog's defaults (spec §9) come from the calculator's own fields. */
export const printerDefaults = Object.freeze({
  wattage: calculatorFields.printerWattage.default,
  cost: calculatorFields.printerCost.default,
  lifetimeHours: calculatorFields.printerLifetimeHours.default,
  electricityRate: calculatorFields.electricityRate.default,
});

/** What the inputs show: the text as typed (German decimals allowed); '' is an unchecked box. Lines 2… only when there are. */
export type CalculatorRawValues = Record<CalculatorFieldName, string> & Partial<Record<LineTextName, string>>;

function defaultText(name: AnyFieldName): string {
  const spec: FieldSpec = calculatorFields[name];
  const value = spec.default;
  // Money with its two decimals, as the pages show it (issue 24 §1): 0,50 €, not 0,5.
  if (typeof value === 'number') return spec.kind === 'number' && spec.money ? formatMoneyInput(value) : formatDecimalInput(value);
  if (typeof value === 'boolean') return value ? '1' : '';
  return value;
}

// Formatted once: every calculator request starts from these texts.
const DEFAULT_RAW_VALUES: Readonly<CalculatorRawValues> = Object.freeze(
  Object.fromEntries(calculatorFieldNames.map((name) => [name, defaultText(name)])) as CalculatorRawValues,
);

export function defaultRawValues(): CalculatorRawValues {
  return { ...DEFAULT_RAW_VALUES };
}

/**
 * Field texts from a query string or form data; a missing field shows its
 * default. A missing checkbox is unchecked (browsers do not submit those).
 */
export function rawValuesFromSearchParams(params: URLSearchParams | FormData): CalculatorRawValues {
  const values = defaultRawValues();
  for (const name of calculatorFieldNames) {
    const spec = calculatorFields[name] as FieldSpec;
    if (!spec.link) continue;
    const value = params.get(name);
    if (typeof value === 'string') values[name] = value;
    else if (spec.kind === 'boolean' && params instanceof FormData) values[name] = '';
  }
  return readLineTexts(params, values);
}

/** Line 1's label and lines 2…16, renumbered without gaps (a line whose grams and price are both missing is none). */
function readLineTexts(params: URLSearchParams | FormData, values: CalculatorRawValues): CalculatorRawValues {
  const text = (name: string) => {
    const value = params.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  const label = text('filamentLabel');
  if (label !== undefined) values.filamentLabel = label;
  const target = values as Record<string, string>;
  // A link's line count (LINE_COUNT_PARAM) is the most lines it describes: more line fields are dropped.
  const count = lineCountOf(params);
  let index = 1;
  for (let source = 1; source < MAX_FILAMENT_LINES && index < (count ?? MAX_FILAMENT_LINES); source++) {
    const grams = text(lineFieldName('grams', source));
    const pricePerKg = text(lineFieldName('pricePerKg', source));
    if (grams === undefined && pricePerKg === undefined) continue;
    target[lineFieldName('grams', index)] = grams ?? defaultText('filamentWeight');
    target[lineFieldName('pricePerKg', index)] = pricePerKg ?? defaultText('filamentPricePerKg');
    target[lineFieldName('label', index)] = text(lineFieldName('label', source)) ?? '';
    index++;
  }
  return values;
}

/** The line texts a link carries after the visible fields (line 1's label, then lines 2… in order). */
function lineLinkEntries(values: CalculatorRawValues): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  const get = (name: string) => (values as Record<string, string | undefined>)[name];
  const label = get('filamentLabel');
  if (label !== undefined) entries.push(['filamentLabel', label.slice(0, calculatorFields.filamentLabel.maxLength)]);
  for (let index = 1; index < MAX_FILAMENT_LINES; index++) {
    const grams = get(lineFieldName('grams', index));
    const pricePerKg = get(lineFieldName('pricePerKg', index));
    if (grams === undefined && pricePerKg === undefined) break;
    entries.push([lineFieldName('grams', index), (grams ?? '').slice(0, LINK_NUMBER_LENGTH)]);
    entries.push([lineFieldName('pricePerKg', index), (pricePerKg ?? '').slice(0, LINK_NUMBER_LENGTH)]);
    const lineLabel = get(lineFieldName('label', index));
    if (lineLabel !== undefined) entries.push([lineFieldName('label', index), lineLabel.slice(0, calculatorFields.filamentLabel.maxLength)]);
  }
  // Always the number of lines, one included: an opened project's draft that went back to one line says so.
  entries.push([LINE_COUNT_PARAM, String(lineTextsOf(values).length)]);
  return entries;
}

/**
 * `filamentLines=<n>` in a calculation link: the number of filament lines it describes
 * (every link written since issue 23 carries it). It marks a link that brings its own
 * lines, so an opened project's draft with fewer lines than the saved project (one
 * included) shows the link's lines, not the saved ones. A link without it (older) has
 * line 1 plus the lines it names.
 */
export const LINE_COUNT_PARAM = 'filamentLines';

/** The line count a link or form names, or null when it names none (or nothing valid: then its line fields count). */
export function lineCountOf(params: URLSearchParams | FormData): number | null {
  const text = params.get(LINE_COUNT_PARAM);
  if (typeof text !== 'string' || !/^\d{1,2}$/.test(text)) return null;
  const count = Number(text);
  return count >= 1 && count <= MAX_FILAMENT_LINES ? count : null;
}

/** The longest value a calculation link carries: a text field's maximum, a number's text is never near 64. */
const LINK_NUMBER_LENGTH = 64;

/**
 * A calculation link. Each value is cut to what its field can hold, so a link
 * built from an over-long input (the no-JS slicer import echoes what was typed)
 * stays an address the server accepts, instead of a 431.
 */
export function rawValuesToSearchParams(values: CalculatorRawValues): URLSearchParams {
  return new URLSearchParams(
    calculatorFieldNames
      .filter((name) => (calculatorFields[name] as FieldSpec).link)
      .map((name) => {
        const spec = calculatorFields[name] as FieldSpec;
        return [name, String(values[name] ?? '').slice(0, spec.kind === 'text' ? spec.maxLength : LINK_NUMBER_LENGTH)];
      })
      .concat(lineLinkEntries(values)),
  );
}


/* ── Filament lines (issue 23) ───────────────────────────────────────────────
 * A calculation has 1 to 16 filament lines. Line 1 IS the table's own fields
 * (filamentWeight, filamentPricePerKg, filamentLabel, selectedFilament: same
 * names, bounds, messages, defaults, links and payloads as before). Lines 2…16
 * repeat those fields under numbered names (filamentWeight2, …), with the
 * line-1 field's spec: the group is declared here once, not as hand-written
 * second fields. A line 2… exists when its grams or its price is given.
 */
export const MAX_FILAMENT_LINES = 16;

/** The parts of a line and the field that is line 1's part. */
export const filamentLineParts = {
  grams: 'filamentWeight',
  pricePerKg: 'filamentPricePerKg',
  label: 'filamentLabel',
  filamentId: 'selectedFilament',
} as const;
export type FilamentLinePart = keyof typeof filamentLineParts;
type LineBaseName = (typeof filamentLineParts)[FilamentLinePart];
type ExtraLineNumber = 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16;
/** Names of lines 2…16 (filamentWeight2, filamentPricePerKg2, filamentLabel2, selectedFilament2, …). */
export type ExtraLineFieldName = `${LineBaseName}${ExtraLineNumber}`;
/** Line texts the form, the link and the export carry besides the visible fields (the ids travel hidden). */
export type LineTextName = 'filamentLabel' | `${'filamentWeight' | 'filamentPricePerKg' | 'filamentLabel'}${ExtraLineNumber}`;

const LINE_PARTS = Object.keys(filamentLineParts) as FilamentLinePart[];

/** The field name of a line's part; index 0 is line 1 (the table's own field). */
export function lineFieldName<P extends FilamentLinePart>(part: P, index: number): (typeof filamentLineParts)[P] | ExtraLineFieldName {
  const base = filamentLineParts[part];
  return index === 0 ? base : (`${base}${index + 1}` as ExtraLineFieldName);
}

const EXTRA_LINE_NAME = /^(filamentWeight|filamentPricePerKg|filamentLabel|selectedFilament)([2-9]|1[0-6])$/;

/** The table field whose spec a line field has (filamentWeight7 → filamentWeight); null for other names. */
export function lineBaseField(name: string): LineBaseName | null {
  const match = EXTRA_LINE_NAME.exec(name);
  return match ? (match[1] as LineBaseName) : null;
}

/** Every name of lines 2…16, line by line. */
export const extraLineFieldNames: readonly ExtraLineFieldName[] = Object.freeze(
  Array.from({ length: MAX_FILAMENT_LINES - 1 }, (_, i) => LINE_PARTS.map((part) => lineFieldName(part, i + 1) as ExtraLineFieldName)).flat(),
);

/** A line as the engine, the project and the export see it. */
export type FilamentLine = { grams: number; pricePerKg: number; label?: string; filamentId?: string };

/** A line's texts as the inputs show them. */
export type FilamentLineTexts = { grams: string; pricePerKg: string; label: string };

/** The lines of parsed values: line 1 always, a line 2… when its grams or price was given (a missing part takes the default). */
export function filamentLinesOf(values: Partial<Record<string, unknown>>): FilamentLine[] {
  const lines: FilamentLine[] = [];
  for (let index = 0; index < MAX_FILAMENT_LINES; index++) {
    const grams = values[lineFieldName('grams', index)];
    const pricePerKg = values[lineFieldName('pricePerKg', index)];
    if (index > 0 && grams === undefined && pricePerKg === undefined) continue;
    const line: FilamentLine = {
      grams: typeof grams === 'number' ? grams : calculatorFields.filamentWeight.default,
      pricePerKg: typeof pricePerKg === 'number' ? pricePerKg : calculatorFields.filamentPricePerKg.default,
    };
    const label = values[lineFieldName('label', index)];
    if (typeof label === 'string' && label !== '') line.label = label;
    const filamentId = values[lineFieldName('filamentId', index)];
    if (typeof filamentId === 'string' && filamentId !== '') line.filamentId = filamentId;
    lines.push(line);
  }
  return lines;
}

/** Total grams and the grams-weighted € per kg (what a client knowing one filament reads, spec §7). */
export function filamentTotals(lines: readonly Pick<FilamentLine, 'grams' | 'pricePerKg'>[]): { grams: number; pricePerKg: number } {
  if (lines.length === 1) return { grams: lines[0].grams, pricePerKg: lines[0].pricePerKg };
  let grams = 0;
  let cost = 0;
  for (const line of lines) {
    grams += line.grams;
    cost += line.grams * line.pricePerKg;
  }
  return { grams, pricePerKg: grams > 0 ? cost / grams : (lines[0]?.pricePerKg ?? calculatorFields.filamentPricePerKg.default) };
}

/** The line texts of raw values, line 1 first (for the form's line list). */
export function lineTextsOf(values: CalculatorRawValues): FilamentLineTexts[] {
  const lines: FilamentLineTexts[] = [];
  const get = (name: string) => (values as Record<string, string | undefined>)[name];
  for (let index = 0; index < MAX_FILAMENT_LINES; index++) {
    const grams = get(lineFieldName('grams', index));
    const pricePerKg = get(lineFieldName('pricePerKg', index));
    if (index > 0 && grams === undefined && pricePerKg === undefined) break;
    lines.push({
      grams: grams ?? defaultText('filamentWeight'),
      pricePerKg: pricePerKg ?? defaultText('filamentPricePerKg'),
      label: get(lineFieldName('label', index)) ?? '',
    });
  }
  return lines;
}

/** Raw values with the given line texts instead of the current ones (line 1 into the table's fields). */
export function withLineTexts(values: CalculatorRawValues, lines: readonly FilamentLineTexts[]): CalculatorRawValues {
  const next: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (value !== undefined && lineBaseField(name) === null && name !== 'filamentLabel') next[name] = value;
  lines.slice(0, MAX_FILAMENT_LINES).forEach((line, index) => {
    next[lineFieldName('grams', index)] = line.grams;
    next[lineFieldName('pricePerKg', index)] = line.pricePerKg;
    if (line.label !== '' || index > 0) next[lineFieldName('label', index)] = line.label;
  });
  return next as CalculatorRawValues;
}
