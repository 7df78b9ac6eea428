/**
 * What a slicer file tells us, and why it could not be read. Pure types, shared
 * by the browser (the file is read locally) and the server (no-JS upload, API).
 *
 * Errors and warnings are codes with parameters; the UI translates them
 * (`calculator:slicer.errors.<code>` / `calculator:slicer.warnings.<code>`).
 */

/** `color`: `#RRGGBB` where the file names the filament's colour; `vendor`: its brand (`filament_vendor`). */
export type SlicerExtruder = { filamentGrams: number; material?: string; color?: string; vendor?: string };

export type SlicerPlate = { index: number; filamentGrams: number; printSeconds: number };

export type SlicerWarningCode =
  /** grams computed from a volume or a length with a density (params: material, density) */
  | 'weightFromVolume'
  | 'weightFromLength';

export type SlicerWarning = { code: SlicerWarningCode; params?: Record<string, string | number> };

export type SlicerSummary = {
  slicer: string;
  slicerVersion: string | null;
  /** all extruders (and, for a multi-plate project, all plates) together */
  filamentGrams: number;
  printSeconds: number;
  perExtruder: SlicerExtruder[];
  plates?: SlicerPlate[];
  /**
   * Issue 23: grams the file reports for purging (wipe tower) separately. Already part of
   * the extruders' grams in the formats that report it (bought filament); shown in the notice.
   */
  purgeGrams?: number;
  /**
   * Set when `purgeGrams` is an estimate: Bambu Studio and OrcaSlicer report no purge grams,
   * only their flush volumes per filament change (`flush_volumes_matrix`, `flush_multiplier`)
   * and the number of changes (`total filament change`). Their grams per filament already
   * hold the flushed filament; the estimate is only named in the notice.
   */
  purgeEstimate?: { changes: number };
  /**
   * Set for a `.gcode.3mf` (Bambu Studio, OrcaSlicer) with two or more filaments: its metadata
   * (slice_info, the plate JSON) gives the grams per filament but no number of filament changes
   * (only the plate G-code's end summary does, which the reader does not inflate), so its purge can
   * be neither read nor estimated; the notice says it is not included.
   */
  purgeUnknown?: true;
  warnings: SlicerWarning[];
};

export const SLICER_ERROR_CODES = [
  'empty',
  'tooLarge',
  'image',
  'notSlicerFile',
  'noSummary',
  'noWeight',
  'noTime',
  'zipDamaged',
  'zipUnsupported',
  'zipNoGcode',
  'zipPartUnavailable',
  'projectNotSliced',
  'bgcodeDamaged',
  'bgcodeCompression',
  /** the server's summary ran past its time budget (services/slicer-summary.server.ts) */
  'tooSlow',
] as const;

export type SlicerErrorCode = (typeof SLICER_ERROR_CODES)[number];

export type SlicerError = { code: SlicerErrorCode; params?: Record<string, string | number> };

export type SlicerReadResult = { ok: true; summary: SlicerSummary } | { ok: false; error: SlicerError };

/**
 * The bytes of a file as the reader gets them: the whole file, or only its
 * first and last bytes (G-code summaries live there) plus the total size.
 * `read` optionally gives random access (a browser `Blob`), which a ZIP
 * whose wanted entry lies in the middle needs.
 */
export type SlicerSlices = {
  size: number;
  head: Uint8Array;
  tail: Uint8Array;
  read?: (offset: number, length: number) => Promise<Uint8Array>;
};

export type SlicerInput = Uint8Array | SlicerSlices;

/** How much of each end is read: summaries sit in the first or last few hundred kB. */
export const SLICER_HEAD_BYTES = 4 * 1024 * 1024;
export const SLICER_TAIL_BYTES = 4 * 1024 * 1024;

/** Thrown inside a reader to end it with a German message code. */
export class SlicerReadError extends Error {
  constructor(
    readonly code: SlicerErrorCode,
    readonly params?: Record<string, string | number>,
  ) {
    super(code);
  }
}

/**
 * A slicer upload as the server read it (app/web/slicer-upload.server.ts): the
 * form's texts and the file's head and tail, or why there is nothing to read.
 */
export type SlicerUpload =
  | { status: 'ok'; fields: Record<string, string>; file: SlicerSlices }
  | { status: 'missingFile'; fields: Record<string, string> }
  | { status: 'tooLarge' }
  | { status: 'badRequest' };
