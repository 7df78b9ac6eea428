/**
 * The calculator page's words, shared by its component, its action and the
 * server's adapters: the address parameters, the intents of the form's posts
 * and the shape of a refused save.
 */

/** `/calculator?zuruecksetzen=1`: back to the defaults, with the spec's toast. */
export const RESET_PARAM = 'zuruecksetzen';
/** `/calculator?project=<id>`: a saved project, opened (signed-in users only). */
export const PROJECT_PARAM = 'project';
/**
 * Marks the calculator opened from the landing's worked example, which then says in one line
 * why its minimum price (fees taken from the price) is above the example's 11,97 € (issue 24 §2).
 */
export const WORKED_EXAMPLE_PARAM = 'beispiel';

/** The type is the one source: the lazily loaded save panel repeats the value typed by it, rather than importing it from the route's chunk. */
export type SaveIntent = 'save';
export const SAVE_INTENT: SaveIntent = 'save';
/** The no-JS product image upload and removal post the whole form with these (the image field repeats them, typed). */
export type UploadIntent = 'uploadImage';
export type RemoveImageIntent = 'removeImage';
export const UPLOAD_INTENT: UploadIntent = 'uploadImage';
export const REMOVE_IMAGE_INTENT: RemoveImageIntent = 'removeImage';
/** Issue 26: 'Angebot erstellen' from a calculation not saved (or changed since): saved first, then on to the new quote. */
export type QuoteIntent = 'saveAndQuote';
export const QUOTE_INTENT: QuoteIntent = 'saveAndQuote';
export type CalculatorIntent = SaveIntent | UploadIntent | RemoveImageIntent | QuoteIntent;

/** A refused save, in the words of the §8 toast (title, text, optional link button). */
export type SaveError = { title: string; text: string; action?: { label: string; href: string } };
