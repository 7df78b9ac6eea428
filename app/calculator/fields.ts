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
import { formatDecimalInput } from '../lib/number';

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
};

/** The one place where form values become engine input. */
export function toEngineInput(
  values: Pick<CalculatorFieldValues, EngineFieldName | 'printTimeHours' | 'printTimeMinutes'>,
): CalculatorInput {
  const input: Record<string, unknown> = {};
  for (const name of allNames) {
    const spec = calculatorFields[name];
    if ('engine' in spec && spec.engine) input[name] = values[name as EngineFieldName];
  }
  input.printTime = values.printTimeHours + values.printTimeMinutes / 60;
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

/** What the inputs show: the text as typed (German decimals allowed); '' is an unchecked box. */
export type CalculatorRawValues = Record<CalculatorFieldName, string>;

function defaultText(name: AnyFieldName): string {
  const value: FieldSpec['default'] = calculatorFields[name].default;
  if (typeof value === 'number') return formatDecimalInput(value);
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
  return values;
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
      }),
  );
}
