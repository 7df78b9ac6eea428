import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { libraryChangeApi, libraryItemApi } from '~/web/library-api.server';

/** GET, PUT and DELETE /api/printers/<id> (spec §7); another user's id is 404. */
export const loader = (args: LoaderFunctionArgs) => libraryItemApi('printers', args);

export const action = (args: ActionFunctionArgs) => libraryChangeApi('printers', args);
