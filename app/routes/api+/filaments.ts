import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { libraryCreateApi, libraryListApi } from '~/web/library-api.server';

/** GET /api/filaments (the user's list, newest first) and POST /api/filaments (spec §7). */
export const loader = (args: LoaderFunctionArgs) => libraryListApi('filaments', args);

export const action = (args: ActionFunctionArgs) => libraryCreateApi('filaments', args);
