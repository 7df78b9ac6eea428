import type { ActionFunctionArgs } from '@remix-run/node';
import { bodyToFormData, isSettingsTab, settingsSchemas } from '~/domain/admin-schemas';
import { adminRefusal, saveSettings, settingsMessageKey } from '~/models/admin.server';
import { getServerT } from '~/i18n.server';
import { getRequestContext } from '~/services/auth.server';
import { malformedBodyResponse, messageResponse, methodNotAllowed, readBody, validationErrorResponse } from '~/web/api.server';
import { apiFailure, apiResult } from '~/web/result-response.server';
import { parseSubmission } from '~/web/form-submission.server';

export const allowedMethods = ['POST'] as const;

/**
 * POST /api/admin/settings/stripe|google-ads|email|contact|operator with the
 * group's fields (spec §7). Secrets: missing or '' keeps the stored value,
 * `clear<Field>: true` removes it. → `{ message }`; 400 with German field errors.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const ctx = await getRequestContext(args);
  const refusal = adminRefusal(ctx);
  if (refusal) return apiFailure(refusal);
  const group = args.params.group;
  if (!isSettingsTab(group)) return messageResponse('auth:messages.notFound', 404);
  const body = await readBody(args.request);
  if (!body) return malformedBodyResponse();
  const submission = parseSubmission(bodyToFormData(body), settingsSchemas[group]);
  const key = settingsMessageKey(group);
  if (submission.status !== 'success') {
    const errors = Object.fromEntries(Object.entries(submission.error ?? {}).filter(([, value]) => value && value.length)) as Record<string, string[]>;
    return validationErrorResponse(errors, `admin:saveFailed.${key}`);
  }
  const t = await getServerT('admin');
  return apiResult(await saveSettings(ctx, group, submission.value as never), () => ({ message: t(`saved.${key}`) }));
}
