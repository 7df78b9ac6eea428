import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { libraryCreateApi, libraryListApi } from '~/web/library-api.server';

/** GET /api/marketplaces (the user's list, newest first) and POST /api/marketplaces (spec §7). */
export const loader = (args: LoaderFunctionArgs) => libraryListApi('marketplaces', args);

export const action = (args: ActionFunctionArgs) => libraryCreateApi('marketplaces', args);
