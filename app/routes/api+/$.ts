import { messageResponse } from '~/web/api.server';

/**
 * /api/<anything no route has>: the JSON API answers JSON for every status,
 * so an unknown address is `{ message }` with 404 in German, whatever the
 * method, not the HTML 404/405 page.
 */
export const loader = () => messageResponse('auth:messages.notFound', 404);
export const action = loader;
