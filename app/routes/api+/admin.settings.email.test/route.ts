import type { ActionFunctionArgs } from '@remix-run/node';
import { adminRefusal, testSmtpConnection } from '~/models/admin.server';
import { getServerT } from '~/i18n.server';
import { getRequestContext } from '~/services/auth.server';
import { jsonResponse, methodNotAllowed } from '~/web/api.server';
import { apiFailure, apiResult } from '~/web/result-response.server';

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
  const t = await getServerT('admin');
  return apiResult(await testSmtpConnection(ctx, null), (answer) =>
    answer.reachable
      ? jsonResponse({ message: t('smtp.reachable') })
      : jsonResponse({ title: t('smtp.failedTitle'), message: answer.error || t(answer.message) }, 422),
  );
}
