import type { ActionFunctionArgs } from '@remix-run/node';
import { messageResponse, methodNotAllowed } from '~/web/api.server';
import { endSession } from '~/services/auth.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['POST'] as const;

/** POST /api/auth/logout → { message }; the session row is deleted and the cookie cleared. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(allowedMethods);
  return messageResponse('auth:messages.logoutSuccess', 200, {}, { headers: { 'Set-Cookie': await endSession(request) } });
}
