import type { ActionFunctionArgs } from '@remix-run/node';
import { contactSchema, isHoneypotFilled } from '~/domain/auth-schemas';
import { sendContactMessage } from '~/models/contact.server';
import { getRequestContext } from '~/services/request-context.server';
import { malformedBodyResponse, messageResponse, methodNotAllowed, readBody, validationErrorResponse, zodFieldErrors } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['POST'] as const;

/**
 * POST /api/contact { name, email, subject, message } → { message }.
 * A filled honeypot (`website`) gets the normal success answer and nothing is stored.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const raw = await readBody(args.request);
  if (!raw) return malformedBodyResponse();
  if (isHoneypotFilled(raw)) return messageResponse('auth:messages.contactSent', 200);
  const parsed = contactSchema.safeParse(raw);
  if (!parsed.success) return validationErrorResponse(zodFieldErrors(parsed.error));
  const result = await sendContactMessage(await getRequestContext(args), parsed.data);
  return apiResult(result, ({ autoReply }) =>
    messageResponse(autoReply ? 'auth:messages.contactSent' : 'auth:messages.contactSentNoReply', 200),
  );
}
