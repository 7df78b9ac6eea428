import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BusinessDetails, Quote, User } from '../../app/entities';
import { deleteAccount } from '../../app/models/account-deletion.server';
import { saveBusinessDetails } from '../../app/models/quotes.server';
import type { RequestContext, UserContext } from '../../app/services/request-context.server';
import { getFileStore, S3FileStore } from '../../app/services/storage.server';
import { consumeRateLimit } from '../../app/services/rate-limit.server';
import { BUSINESS_LOGO_MAX_BYTES } from '../../app/domain/limits';
import { issueUserSession } from '../../app/services/auth.server';
import { action as profileAction, loader as profileLoader } from '../../app/routes/_account+/profile';
import { loader as imageLoader } from '../../app/routes/_resources+/images.$';
import { action as quotesAction } from '../../app/routes/api+/quotes';
import { loader as pdfLoader } from '../../app/routes/api+/quotes.$id.pdf';
import { action as quoteOneAction } from '../../app/routes/api+/quotes.$id';
import { action as projectsAction } from '../../app/routes/api+/projects';
import { apiRequest, call, createUser, randomIp, useAuthTestApp, type Handler } from '../setup/auth-app';
import { useTestS3Store } from '../setup/s3-server';

/**
 * The seller's logo for quotes (issue 26 §1) through the image pipeline, on S3
 * (s3rver on a loopback port): the profile page's no-JS form posts the file; it
 * is checked by its first bytes and size, re-encoded, stored under a new key,
 * served to its owner only, drawn on the PDF, kept for quotes that saved it,
 * and removed with the account.
 */
const app = useAuthTestApp('quote_logo');
const s3 = useTestS3Store('druckpreis-logos', 'logo');

async function seller({ details = true } = {}) {
  const { user } = await createUser(app.orm);
  const setCookie = await issueUserSession(new Request('http://localhost:3000/'), user.id);
  const cookie = /__session=[^;]*/.exec(setCookie)![0];
  if (details) {
    const ctx = { em: app.em(), user, sessionId: '', ip: '127.0.0.1', now: new Date(), hasSession: true, privateResponse: true } as UserContext;
    await saveBusinessDetails(ctx, {
      businessName: 'Testdruck', address: 'Weg 1\n12345 Ort', email: 'angebote@testdruck.example',
      phone: null, taxId: null, smallBusiness: false, bankDetails: null, validityDays: 14, closingText: '',
    });
  }
  return { user, cookie };
}

/** What the card's form posts: multipart to /profile?logo with the file as `image`. */
function uploadRequest(cookie: string, bytes: Buffer, { type = 'image/png', name = 'logo.png' } = {}) {
  const form = new FormData();
  form.set('intent', 'uploadLogo');
  form.set('image', new File([new Uint8Array(bytes)], name, { type }));
  return new Request('http://localhost:3000/profile?logo', { method: 'POST', headers: { Cookie: cookie, Origin: 'http://localhost:3000', 'X-Forwarded-For': randomIp() }, body: form });
}

type Answer = { status: number; location: string | null; formError: string };

/** The profile action's answer: a redirect (Response), or Remix `data()` with the form's message and status. */
async function post(request: Request): Promise<Answer> {
  let result: unknown;
  try {
    result = await profileAction({ request, params: {}, context: {} } as never);
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    result = error;
  }
  if (result instanceof Response) return { status: result.status, location: result.headers.get('location'), formError: '' };
  const answer = result as { data: { formError?: string }; init: { status?: number } | null };
  return { status: answer.init?.status ?? 200, location: null, formError: answer.data.formError ?? '' };
}

const upload = (cookie: string, bytes: Buffer, options?: { type?: string; name?: string }) => post(uploadRequest(cookie, bytes, options));

async function logoOf(userId: string): Promise<string | null> {
  const details = await app.em().findOne(BusinessDetails, { user: userId });
  return details?.logoPath ?? null;
}

const keyOf = (logoPath: string) => logoPath.slice('/images/'.length);

/** A wide PNG with transparency and EXIF, as a seller's design tool exports it. */
async function pngLogo(color = '#d0021b') {
  return sharp({ create: { width: 1600, height: 500, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: { create: { width: 1200, height: 300, channels: 4, background: color } }, left: 200, top: 100 }])
    .withMetadata({ exif: { IFD0: { Copyright: 'Geheim GmbH', Artist: 'Anna Muster' } } })
    .png()
    .toBuffer();
}

const image = (cookie: string | null, logoPath: string) =>
  call(imageLoader as Handler, new Request(`http://localhost:3000${logoPath}`, { headers: cookie ? { Cookie: cookie } : {} }), { '*': keyOf(logoPath) });

async function quoteWithPdf(cookie: string) {
  const project = await call(projectsAction as Handler, apiRequest('/api/projects', 'POST', { name: 'Vase', quantity: 1, filamentWeight: 50, printTime: 2 }, { cookie }));
  expect(project.status).toBe(201);
  const { id: projectId } = (await project.json()) as { id: string };
  const created = await call(quotesAction as Handler, apiRequest('/api/quotes', 'POST', { projectId, customerName: 'Erika' }, { cookie }));
  expect(created.status).toBe(201);
  const quote = (await created.json()) as { id: string };
  return { id: quote.id, pdf: () => pdfOf(cookie, quote.id) };
}

async function pdfOf(cookie: string, id: string) {
  const response = await call(pdfLoader as Handler, apiRequest(`/api/quotes/${id}/pdf`, 'GET', undefined, { cookie, ip: randomIp() }), { id });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

const imagesIn = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Subtype \/Image/g) ?? []).length;

describe('the quote logo (issue 26 §1) on S3', () => {
  it('is checked, re-encoded without metadata, stored on S3, served to its owner only, and drawn on the PDF', async () => {
    expect(getFileStore()).toBeInstanceOf(S3FileStore);
    const { user, cookie } = await seller();
    const without = await quoteWithPdf(cookie);
    const plainPdf = await without.pdf();
    expect(imagesIn(plainPdf)).toBe(0);

    const response = await upload(cookie, await pngLogo());
    expect(response.status).toBe(302);
    expect(response.location).toBe('/profile#geschaeftsdaten');
    const logoPath = (await logoOf(user.id))!;
    expect(logoPath).toMatch(new RegExp(`^/images/logo/${user.id}/[0-9a-f]{32}$`));

    // Stored on S3 as a plain JPEG: scaled, flattened, no EXIF.
    const stored = (await getFileStore().get(keyOf(logoPath)))!;
    expect(stored.contentType).toBe('image/jpeg');
    expect([...stored.body.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const meta = await sharp(stored.body).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 800, height: 250 });
    expect(meta.exif).toBeUndefined();
    expect(stored.body.includes(Buffer.from('Geheim GmbH'))).toBe(false);

    // The profile page shows it; the image route serves it to the owner only.
    const page = (await profileLoader({ request: new Request('http://localhost:3000/profile', { headers: { Cookie: cookie } }), params: {}, context: {} } as never)) as { businessLogo: string | null };
    expect(page.businessLogo).toBe(logoPath);
    const own = await image(cookie, logoPath);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/jpeg');
    const stranger = await seller();
    expect((await image(stranger.cookie, logoPath)).status).toBe(404);
    expect((await image(null, logoPath)).status).toBe(404);

    // A quote saved now carries it; its PDF draws it (and stays small).
    const withLogo = await quoteWithPdf(cookie);
    const pdf = await withLogo.pdf();
    expect(imagesIn(pdf)).toBe(1);
    expect(pdf.length).toBeLessThan(plainPdf.length + stored.body.length + 20_000);
    // The quote made before the upload is a snapshot: still without a logo.
    expect(imagesIn(await without.pdf())).toBe(0);
  });

  it('refuses a wrong type and a too large file in German, and stores nothing', async () => {
    const { user, cookie } = await seller();
    const before = await upload(cookie, await pngLogo());
    expect(before.status).toBe(302);
    const current = (await logoOf(user.id))!;
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(200, 1)]);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const text = Buffer.from('kein Bild, nur Text');
    for (const [bytes, type] of [[gif, 'image/gif'], [svg, 'image/png'], [text, 'image/png'], [Buffer.alloc(0), 'image/png']] as const) {
      const response = await upload(cookie, bytes, { type });
      expect(response.status, type).toBe(400);
      expect(response.formError).toBe('Bitte wählen Sie ein Logo als JPEG- oder PNG-Datei.');
    }
    // PNG by its first bytes, over 2 MB: refused by the reader (the part stops at the cap) and by the operation.
    const big = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2 * 1024 * 1024 + 10, 7)]);
    const tooLarge = await upload(cookie, big);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.formError).toBe('Das Logo ist zu groß. Bitte wählen Sie eine Datei bis 2 MB.');
    // Nothing replaced, nothing stored besides the one logo.
    expect(await logoOf(user.id)).toBe(current);
    const keys = await s3.listKeys(`logo/${user.id}/`);
    expect(keys).toEqual([keyOf(current)]);
  });

  it('before the business details are saved: a German hint, nothing stored', async () => {
    const { user, cookie } = await seller({ details: false });
    const response = await upload(cookie, await pngLogo());
    expect(response.status).toBe(400);
    expect(response.formError).toBe('Speichern Sie zuerst Ihre Geschäftsdaten; danach können Sie ein Logo hochladen.');
    expect(await s3.listKeys(`logo/${user.id}/`)).toEqual([]);
  });

  it('8 parallel uploads leave exactly one logo file, and the account deletion leaves none', async () => {
    const { user, cookie } = await seller();
    const logo = await pngLogo('#f5a623');
    const answers = await Promise.all(Array.from({ length: 8 }, () => upload(cookie, logo)));
    for (const answer of answers) expect(answer.status, answer.formError).toBe(302);
    const current = (await logoOf(user.id))!;
    expect(await s3.listKeys(`logo/${user.id}/`)).toEqual([keyOf(current)]);
    const deletion = { em: app.em(), user: null, sessionId: '', ip: '127.0.0.1', now: new Date(), hasSession: false, privateResponse: false } as RequestContext;
    expect((await deleteAccount(deletion, { userId: user.id, by: 'admin' })).kind).toBe('ok');
    expect(await s3.listKeys(`logo/${user.id}/`)).toEqual([]);
  });

  it('a logo over 16 MP is refused in German before decoding; past 20 uploads an hour a German 429 (counted in PostgreSQL)', async () => {
    const { user, cookie } = await seller();
    // 5000 × 4000 = 20 MP: under the pictures' 40 MP, over the logo's 16 MP (a plain PNG, a few KB).
    const huge = await sharp({ create: { width: 5000, height: 4000, channels: 3, background: '#ffffff' } }).png().toBuffer();
    expect(huge.length).toBeLessThan(BUSINESS_LOGO_MAX_BYTES);
    const refused = await upload(cookie, huge);
    expect(refused.status).toBe(400);
    expect(refused.formError).toBe('Das Logo hat zu viele Bildpunkte (höchstens 16 Megapixel). Bitte verkleinern Sie es.');
    expect(await s3.listKeys(`logo/${user.id}/`)).toEqual([]);

    // 1 counted above; 18 more from other machines, then the 20th still goes through.
    for (let i = 0; i < 18; i++) await consumeRateLimit(app.em(), 'logoUpload', { ip: randomIp(), email: `user:${user.id}` });
    expect((await upload(cookie, await pngLogo())).status).toBe(302);
    const current = await logoOf(user.id);
    const limited = await upload(cookie, await pngLogo('#4a90e2'));
    expect(limited.status).toBe(429);
    expect(limited.formError).toBe('Sie haben in kurzer Zeit zu viele Logos hochgeladen. Bitte versuchen Sie es in einer Stunde erneut.');
    expect(await logoOf(user.id)).toBe(current);
    expect(await s3.listKeys(`logo/${user.id}/`)).toHaveLength(1);
  });

  it('replaced and removed: a quote keeps the logo it was saved with; a logo no quote shows is deleted', async () => {
    const { user, cookie } = await seller();
    await upload(cookie, await pngLogo('#d0021b'));
    const first = (await logoOf(user.id))!;
    const quote = await quoteWithPdf(cookie);
    const quotePdf = await quote.pdf();
    expect(imagesIn(quotePdf)).toBe(1);

    // Replaced: the first stays (the quote shows it), the second is current.
    await upload(cookie, await pngLogo('#4a90e2'));
    const second = (await logoOf(user.id))!;
    expect(second).not.toBe(first);
    expect(await getFileStore().get(keyOf(first))).not.toBeNull();
    expect((await image(cookie, first)).status).toBe(200);

    // Replaced again: the second was on no quote, so its file goes.
    await upload(cookie, await pngLogo('#7ed321'));
    const third = (await logoOf(user.id))!;
    expect(await getFileStore().get(keyOf(second))).toBeNull();

    // Removed: business details without a logo, the file gone; the quote's PDF is unchanged.
    const removeForm = new URLSearchParams({ intent: 'removeLogo' });
    const removed = await post(
      new Request('http://localhost:3000/profile', { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'http://localhost:3000' }, body: removeForm }),
    );
    expect(removed.status).toBe(302);
    expect(await logoOf(user.id)).toBeNull();
    expect(await getFileStore().get(keyOf(third))).toBeNull();
    const again = await quote.pdf();
    expect(imagesIn(again)).toBe(1);
    expect(again.length).toBe(quotePdf.length);
    expect(imagesIn(await (await quoteWithPdf(cookie)).pdf())).toBe(0);
  });

  it('a logo only a deleted draft showed is deleted with it; a saved draft takes the current logo', async () => {
    const { user, cookie } = await seller();
    await upload(cookie, await pngLogo('#d0021b'));
    const first = (await logoOf(user.id))!;
    const kept = await quoteWithPdf(cookie);
    const deleted = await quoteWithPdf(cookie);
    await upload(cookie, await pngLogo('#4a90e2'));
    // Two drafts still show the first logo: deleting one keeps it.
    const remove = (id: string) => call(quoteOneAction as Handler, apiRequest(`/api/quotes/${id}`, 'DELETE', undefined, { cookie }), { id });
    expect((await remove(deleted.id)).status).toBe(204);
    expect(await getFileStore().get(keyOf(first))).not.toBeNull();
    // The other draft saved again takes the second logo: nothing shows the first any more.
    const body = { customerName: 'Erika', quoteDate: '2026-11-26', validUntil: '2026-12-10', lines: [{ kind: 'product', description: 'Vase', quantity: 1, unitPrice: '10,00', vatRate: 19 }] };
    const saved = await call(quoteOneAction as Handler, apiRequest(`/api/quotes/${kept.id}`, 'PUT', body, { cookie }), { id: kept.id });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as { seller: { logoPath: string } }).seller.logoPath).toBe(await logoOf(user.id));
    expect(await getFileStore().get(keyOf(first))).toBeNull();
    expect(imagesIn(await kept.pdf())).toBe(1);
  });

  it("another seller's logo never reaches a stranger: not by its address, not through a forged quote", async () => {
    const owner = await seller();
    await upload(owner.cookie, await pngLogo());
    const logoPath = (await logoOf(owner.user.id))!;
    const stranger = await seller();
    expect((await image(stranger.cookie, logoPath)).status).toBe(404);
    // Even a quote row pointing at it (written past the operations) draws nothing.
    const quote = await quoteWithPdf(stranger.cookie);
    const row = await app.em().findOneOrFail(Quote, { id: quote.id });
    await app.em().nativeUpdate(Quote, { id: quote.id }, { seller: { ...row.seller, logoPath } });
    expect(imagesIn(await quote.pdf())).toBe(0);
  });

  it('goes with the account: the current logo and every one a quote kept', async () => {
    const { user, cookie } = await seller();
    await upload(cookie, await pngLogo('#d0021b'));
    const first = (await logoOf(user.id))!;
    await quoteWithPdf(cookie);
    await upload(cookie, await pngLogo('#4a90e2'));
    const second = (await logoOf(user.id))!;
    const ctx: RequestContext = { em: app.em(), user: null, sessionId: '', ip: '127.0.0.1', now: new Date(), hasSession: false, privateResponse: false };
    const result = await deleteAccount(ctx, { userId: user.id, by: 'admin' });
    expect(result).toMatchObject({ kind: 'ok', value: { filesPending: 0 } });
    expect(await app.em().count(User, { id: user.id })).toBe(0);
    for (const logo of [first, second]) expect(await getFileStore().get(keyOf(logo))).toBeNull();
  });
});
