import { libraryItemRoute } from '~/utils/library-api.server';

/** GET, PUT and DELETE /api/shipping-providers/<id> (spec §7); another user's id is 404. */
export const { loader, action } = libraryItemRoute('shipping');
