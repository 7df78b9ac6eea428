import { libraryCollectionRoute } from '~/utils/library-api.server';

/** GET /api/filaments (the user's list, newest first) and POST /api/filaments (spec §7). */
export const { loader, action } = libraryCollectionRoute('filaments');
