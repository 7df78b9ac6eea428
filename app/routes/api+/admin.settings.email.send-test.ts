import type { ActionFunctionArgs } from '@remix-run/node';
import { testMailSchema } from '~/domain/admin-schemas';
import { adminRefusal, sendTestMail } from '~/models/admin.server';
import { getServerT } from '~/i18n.server';
import { getRequestContext } from '~/services/auth.server';
import { jsonResponse, methodNotAllowed, parseBody } from '~/web/api.server';
import { apiFailure, apiResult } from '~/web/result-response.server';

export const allowedMethods = ['POST'] as const;

/**
 * POST /api/admin/settings/email/send-test { testEmail } (spec §7): the test
 * mail goes through the outbox and is sent at once; 200 `{ message }` when it
 * left, 422 `{ message }` with the reason when not.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const ctx = await getRequestContext(args);
  const refusal = adminRefusal(ctx);
  if (refusal) return apiFailure(refusal);
  const parsed = await parseBody(args.request, testMailSchema);
  if (!parsed.ok) return parsed.response;
  const t = await getServerT('admin');
  return apiResult(await sendTestMail(ctx, parsed.data), ({ sent, error }) =>
    sent
      ? jsonResponse({ message: t('smtp.sent', { email: parsed.data.testEmail }) })
      : jsonResponse({ title: t('smtp.sendFailedTitle'), message: error || t('smtp.sendFailed') }, 422),
  );
}
