import { libraryCollectionRoute } from '~/utils/library-api.server';

/** GET /api/packaging (the user's list, newest first) and POST /api/packaging (spec §7). */
export const { loader, action } = libraryCollectionRoute('packaging');
