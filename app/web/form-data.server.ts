import { getServerT } from '../i18n.server';

/**
 * The form body of a page action. A body the parser cannot read (a broken
 * multipart body, a stream cut off) is the client's fault: 400 with a German
 * message, never a 500. Method, content type and size were checked before
 * Remix ran (app/server/request-guard.server.ts).
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    const t = await getServerT('auth');
    throw new Response(t('auth:messages.badRequest'), {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  }
}
