import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { signInWithLink } from '~/models/sign-in-links.server';
import { toPublicUser } from '~/models/users.server';
import { signInHeaders } from '~/services/auth.server';
import { getRequestContext } from '~/services/request-context.server';
import { jsonResponse, methodNotAllowed, parseBody } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['POST'] as const;

const schema = z.object({ token: z.string({ error: 'signin:messages.linkInvalid' }).max(256, 'signin:messages.linkInvalid') });

/**
 * POST /api/auth/login-link/verify { token } → the user, with a NEW session
 * cookie and the device cookie, as a sign-in with the password would. The
 * link works once, within 15 minutes; otherwise 400 `{ message }`.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const parsed = await parseBody(args.request, schema);
  if (!parsed.ok) return parsed.response;
  const result = await signInWithLink(await getRequestContext(args), parsed.data);
  return apiResult(result, async ({ user }) => jsonResponse(toPublicUser(user), { headers: await signInHeaders(args.request, user.id) }));
}
