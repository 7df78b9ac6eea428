import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { libraryChangeApi, libraryItemApi } from '~/web/library-api.server';

/** GET, PUT and DELETE /api/marketplaces/<id> (spec §7); another user's id is 404. */
export const loader = (args: LoaderFunctionArgs) => libraryItemApi('marketplaces', args);

export const action = (args: ActionFunctionArgs) => libraryChangeApi('marketplaces', args);
