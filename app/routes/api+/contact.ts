import type { ActionFunctionArgs } from '@remix-run/node';
import { contactSchema, isHoneypotFilled } from '~/models/auth-schemas';
import { submitContactMessage } from '~/models/contact.server';
import { getEm } from '~/services/db.server';
import { clientIp, consumeRateLimit } from '~/services/rate-limit.server';
import {
  invalidRequestResponse,
  messageResponse,
  methodNotAllowed,
  rateLimitedResponse,
  readBody,
  validationErrorResponse,
  zodFieldErrors,
} from '~/utils/api.server';

/**
 * POST /api/contact { name, email, subject, message } → { message }.
 * A filled honeypot (`website`) gets the normal success answer and nothing is stored.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const raw = await readBody(request);
  if (!raw) return invalidRequestResponse();
  if (isHoneypotFilled(raw)) return messageResponse('auth:messages.contactSent', 200);

  const parsed = contactSchema.safeParse(raw);
  if (!parsed.success) return validationErrorResponse(zodFieldErrors(parsed.error));
  const em = await getEm();
  const ip = clientIp(request);
  const limit = await consumeRateLimit(em, 'contact', { ip, email: parsed.data.email });
  if (!limit.allowed) return rateLimitedResponse(limit.retryAfterSeconds);

  const result = await submitContactMessage(em, parsed.data, ip);
  return messageResponse(result.autoReply ? 'auth:messages.contactSent' : 'auth:messages.contactSentNoReply', 200);
}
