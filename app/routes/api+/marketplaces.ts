import { libraryCollectionRoute } from '~/utils/library-api.server';

/** GET /api/marketplaces (the user's list, newest first) and POST /api/marketplaces (spec §7). */
export const { loader, action } = libraryCollectionRoute('marketplaces');
