import { getServerT } from '../i18n.server';
import { BUSINESS_LOGO_MAX_BYTES } from '../domain/limits';
import { refusedLogo, removeBusinessLogo, uploadBusinessLogo } from '../models/business-logo.server';
import type { UserContext } from '../services/request-context.server';
import { readPictureUpload } from './image-upload.server';
import { pageMessageResult } from './result-response.server';

/** The logo forms of the Geschäftsdaten card on /profile (issue 26 §1). */
export const LOGO_UPLOAD_INTENT = 'uploadLogo';
export const LOGO_REMOVE_INTENT = 'removeLogo';

/** Whether a /profile post is the logo upload (its form posts to `/profile?logo`: the file may be refused before its fields are read). */
export function isLogoUpload(request: Request): boolean {
  return new URL(request.url).searchParams.has('logo');
}

/** The no-JS (and scripted) logo upload: the file read from the multipart body, checked, stored; the message at the card or a toast. */
export async function businessLogoUploadReply(ctx: UserContext, request: Request) {
  const upload = await readPictureUpload(request, BUSINESS_LOGO_MAX_BYTES);
  const result = upload.ok ? await uploadBusinessLogo(ctx, upload.bytes) : refusedLogo(upload.error);
  const t = await getServerT('quotes');
  return pageMessageResult(result, () => ({
    redirectTo: '/profile#geschaeftsdaten',
    toast: { type: 'success', title: t('logo.uploaded'), description: t('logo.uploadedDescription'), section: 'geschaeftsdaten' },
  }), { extra: { intent: LOGO_UPLOAD_INTENT } });
}

export async function businessLogoRemoveReply(ctx: UserContext) {
  const t = await getServerT('quotes');
  return pageMessageResult(await removeBusinessLogo(ctx), () => ({
    redirectTo: '/profile#geschaeftsdaten',
    toast: { type: 'success', title: t('logo.removed'), description: t('logo.removedDescription'), section: 'geschaeftsdaten' },
  }), { extra: { intent: LOGO_REMOVE_INTENT } });
}

