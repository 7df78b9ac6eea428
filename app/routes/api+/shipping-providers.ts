import { libraryCollectionRoute } from '~/utils/library-api.server';

/** GET /api/shipping-providers (the user's list, newest first) and POST /api/shipping-providers (spec §7). */
export const { loader, action } = libraryCollectionRoute('shipping');
