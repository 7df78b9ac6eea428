import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { libraryCreateApi, libraryListApi } from '~/web/library-api.server';

/** GET /api/printers (the user's list, newest first) and POST /api/printers (spec §7). */
export const loader = (args: LoaderFunctionArgs) => libraryListApi('printers', args);

export const action = (args: ActionFunctionArgs) => libraryCreateApi('printers', args);
