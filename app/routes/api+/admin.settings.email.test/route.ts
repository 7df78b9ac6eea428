import type { ActionFunctionArgs } from '@remix-run/node';
import { adminRefusal, testSmtpConnection } from '~/models/admin.server';
import { getServerT } from '~/i18n.server';
import { getRequestContext } from '~/services/auth.server';
import { jsonResponse, methodNotAllowed } from '~/web/api.server';
import { apiFailure } from '~/web/result-response.server';

// A folder with route.ts: a file named `*.test.ts` would be taken for a test and ignored as a route (remix.config.js).
export const allowedMethods = ['POST'] as const;

/**
 * POST /api/admin/settings/email/test with an empty body (spec §7): checks
 * the saved SMTP settings within 10 s. 200 `{ message }` when reachable,
 * 422 `{ message }` with the server's message when not.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const ctx = await getRequestContext(args);
  const refusal = adminRefusal(ctx);
  if (refusal) return apiFailure(refusal);
  // The body is ignored (spec: empty); it is read so the connection stays in step.
  await args.request.arrayBuffer().catch(() => undefined);
  const result = await testSmtpConnection(ctx, null);
  if (result.kind !== 'ok') return apiFailure(result);
  const t = await getServerT('admin');
  const answer = result.value;
  if (answer.reachable) return jsonResponse({ message: t('smtp.reachable') });
  return jsonResponse({ title: t('smtp.failedTitle'), message: answer.error || t(answer.message) }, 422);
}
