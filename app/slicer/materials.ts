/**
 * Filament densities (g/cm³) for turning a volume or a length into grams when
 * a file gives no weight (issue 13 §1). A density the file states wins.
 */
export const MATERIAL_DENSITY: Record<string, number> = {
  PLA: 1.24,
  PETG: 1.27,
  ABS: 1.04,
  ASA: 1.07,
  TPU: 1.21,
  PC: 1.2,
  Nylon: 1.14,
  HIPS: 1.04,
  PVA: 1.23,
};

export const DEFAULT_MATERIAL = 'PLA';
export const DEFAULT_DIAMETER_MM = 1.75;

/** `PLA+`, `PLA-CF`, `PA6`, `PETG-HF`, `FLEX` → the table's names; unknown stays as written. */
export function normalizeMaterial(name: string | undefined): string | undefined {
  const value = name?.trim().replace(/^"|"$/g, '');
  if (!value) return undefined;
  const upper = value.toUpperCase();
  if (upper.startsWith('PETG') || upper === 'PET') return 'PETG';
  if (upper.startsWith('PLA')) return 'PLA';
  if (upper.startsWith('ABS')) return 'ABS';
  if (upper.startsWith('ASA')) return 'ASA';
  if (upper.startsWith('TPU') || upper.startsWith('FLEX')) return 'TPU';
  if (upper.startsWith('HIPS')) return 'HIPS';
  if (upper.startsWith('PVA')) return 'PVA';
  if (upper.startsWith('NYLON') || /^PA\d*(?:[-_ ]|$)/.test(upper)) return 'Nylon';
  if (upper === 'PC' || upper.startsWith('PC-') || upper.startsWith('PC ')) return 'PC';
  return value;
}

/** The density for a material: the file's own if given (> 0), else the table, else PLA. */
export function densityFor(material: string | undefined, fileDensity?: number): number {
  if (fileDensity !== undefined && fileDensity > 0) return fileDensity;
  return MATERIAL_DENSITY[normalizeMaterial(material) ?? DEFAULT_MATERIAL] ?? MATERIAL_DENSITY[DEFAULT_MATERIAL];
}

export function gramsFromCubicCentimetres(cm3: number, density: number): number {
  return cm3 * density;
}

export function gramsFromLength(mm: number, diameterMm: number, density: number): number {
  const radius = diameterMm / 2;
  return ((Math.PI * radius * radius * mm) / 1000) * density;
}

export function roundGrams(grams: number): number {
  return Math.round(grams * 100) / 100;
}
