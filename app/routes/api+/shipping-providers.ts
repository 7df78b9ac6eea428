import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { libraryCreateApi, libraryListApi } from '~/web/library-api.server';

/** GET /api/shipping-providers (the user's list, newest first) and POST /api/shipping-providers (spec §7). */
export const loader = (args: LoaderFunctionArgs) => libraryListApi('shipping', args);

export const action = (args: ActionFunctionArgs) => libraryCreateApi('shipping', args);
