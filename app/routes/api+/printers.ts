import { libraryCollectionRoute } from '~/utils/library-api.server';

/** GET /api/printers (the user's list, newest first) and POST /api/printers (spec §7). */
export const { loader, action } = libraryCollectionRoute('printers');
