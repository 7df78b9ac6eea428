import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { libraryCreateApi, libraryListApi } from '~/web/library-api.server';

/** GET /api/packaging (the user's list, newest first) and POST /api/packaging (spec §7). */
export const loader = (args: LoaderFunctionArgs) => libraryListApi('packaging', args);

export const action = (args: ActionFunctionArgs) => libraryCreateApi('packaging', args);
