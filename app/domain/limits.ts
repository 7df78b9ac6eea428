/**
 * How often and how much: the rate limits per action and the upload caps, the
 * two kinds of limit a client meets. Browser-safe: the pages check the caps
 * before sending, the server again while it reads (the body limits per route
 * in server/request-guard.server.ts are built from them).
 */

/**
 * Rate limits per action, before RATE_LIMIT_FACTOR scales them. Every rule
 * counts each attempt it lets through in a fixed window; a request is refused
 * as soon as one of its rules is at its limit, and a refused request counts
 * nowhere (otherwise a stranger's refused requests would keep the window of
 * the address's owner full for ever).
 *
 * - `ip`: per client IP (slows one machine down whatever address it tries)
 * - `email`: per e-mail address (protects one mailbox/account from many machines)
 * - `ipEmail`: per IP and address together (password guessing on one account)
 * - `device`: per device cookie (a browser that signed in to the account before,
 *   docs/sign-in-protection.md); the key names the account and the cookie's nonce
 *
 * `refundOn`: the attempt is counted when it starts (so concurrent requests
 * cannot slip past the limit) and taken back once the outcome is known to be
 * this one — sign-in counts only failures, registration only successes.
 *
 * `onlyAfterPairFailure`: an address-wide ceiling that refuses only clients
 * (IPs) that have themselves already counted against this address. A stranger
 * can thus use up the ceiling for every IP that guessed, but never stop the
 * owner signing in from a machine that has not failed.
 */
export type RateLimitScope = 'ip' | 'email' | 'ipEmail' | 'device';

export type RateLimitOutcome = 'success' | 'failure';

export type RateLimitRule = {
  scope: RateLimitScope;
  limit: number;
  windowSeconds: number;
  refundOn?: RateLimitOutcome;
  onlyAfterPairFailure?: boolean;
};

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/** One rule: `limit` attempts per `scope` key in a window of `windowSeconds`. */
function rule(scope: RateLimitScope, limit: number, windowSeconds: number, options: Pick<RateLimitRule, 'refundOn' | 'onlyAfterPairFailure'> = {}): RateLimitRule {
  return { scope, limit, windowSeconds, ...options };
}

/** The per-user tools' shape: `user` attempts an hour per user (the `email` key), `ip` per IP. */
function perUserAndIpHourly(user: number, ip: number): RateLimitRule[] {
  return [rule('email', user, HOUR), rule('ip', ip, HOUR)];
}

export const RATE_LIMIT_RULES = {
  login: [
    rule('ipEmail', 10, 15 * MINUTE, { refundOn: 'success' }),
    rule('ip', 50, 15 * MINUTE),
    // Much higher than one IP's share: stops a botnet guessing one password, never the owner.
    rule('email', 100, HOUR, { refundOn: 'success', onlyAfterPairFailure: true }),
  ],
  // A sign-in carrying a valid device cookie for the account counts here and nowhere else: no failure
  // from another IP or browser (the address ceiling, a NAT neighbour's IP) can stop it. OWASP "device cookies".
  loginDevice: [rule('device', 10, 15 * MINUTE, { refundOn: 'success' })],
  // Sign-in links by mail. Per IP: refused with 429 (the same for every address, so it tells nothing).
  // Per address: over the limit the answer stays the same and no mail goes out. The window is the link's
  // lifetime (15 min), so while an address is at its limit every link mailed in the window still works:
  // a stranger filling it cannot leave the owner without a working link.
  loginLink: [rule('ip', 20, HOUR), rule('email', 5, 15 * MINUTE)],
  register: [
    // Only accounts actually registered count: offices and mobile carriers share one address.
    rule('ip', 20, HOUR, { refundOn: 'failure' }),
    // Each successful attempt mails the address ("confirm" or "account exists"): do not let anyone flood a mailbox.
    rule('email', 5, HOUR, { refundOn: 'failure' }),
  ],
  forgotPassword: [
    // Per address *and* IP, so a stranger's requests never block the owner's own.
    rule('ipEmail', 5, HOUR),
    rule('ip', 20, HOUR),
    rule('email', 30, HOUR, { onlyAfterPairFailure: true }),
  ],
  resendVerification: [
    rule('ipEmail', 3, HOUR),
    rule('ip', 10, HOUR),
    rule('email', 20, HOUR, { onlyAfterPairFailure: true }),
  ],
  contact: [rule('ip', 5, HOUR), rule('email', 5, HOUR)],
  // Profile: a changed e-mail address mails a link to whatever address was typed.
  changeEmail: [rule('ip', 10, HOUR), rule('email', 5, HOUR)],
  // Upload addresses for profile pictures, per user (the `email` key is the user id).
  uploadUrl: perUserAndIpHourly(20, 60),
  // Reading a slicer file costs a streamed upload (up to 1 GB) but sends no mail:
  // generous for a seller trying a few files, a wall for a script.
  slicerImport: [rule('ip', 60, 10 * MINUTE)],
  // Quotes mailed to customers, per seller (the `email` key is `user:<id>`): enough for a busy day,
  // too few to mail strangers in bulk. The IP rule stops one machine with many accounts.
  quoteSend: perUserAndIpHourly(20, 60),
  // Quote PDFs, per user (the `email` key is the user id): each costs about 0,1 s of a worker, so
  // a loop over them slowed every page (attacker review); a seller prints a handful an hour.
  quotePdf: perUserAndIpHourly(120, 300),
  // Quote logos on /profile, per seller (the `email` key is `user:<id>`): each upload decodes an image
  // (up to BUSINESS_LOGO_MAX_PIXELS, ~0,1 s of a worker) and stores a file; a seller tries a few.
  logoUpload: perUserAndIpHourly(20, 60),
  // The admin's mail tools (issue 20): a test mail goes to whatever address is typed, a connection test
  // opens a connection to whatever host and port are typed and may wait 10 s. Enough to set up the mail
  // server, too few to mail strangers in bulk or to probe hosts from the server. Per admin (the `email`
  // key is `admin:<id>`), and per IP for one machine with several admin sessions.
  adminTestMail: perUserAndIpHourly(10, 20),
  // GET /projects.csv prices every project of the user (thousands for a big library): a few
  // downloads a quarter hour per user are plenty for a spreadsheet, not for tying up the server.
  projectCsvExport: [rule('email', 10, 15 * MINUTE)],
  adminSmtpTest: perUserAndIpHourly(30, 60),
  // The current password asked again on /profile (password change, account deletion): a session
  // left open on a shared computer must not turn into unlimited guesses (as sign-in: 10 / 15 min).
  currentPassword: [rule('email', 10, 15 * MINUTE)],
} as const satisfies Record<string, readonly RateLimitRule[]>;

/** A page's form body and a JSON API body: 64 KB (a multipart body's texts too; uploads have their caps below). */
export const FORM_BODY_LIMIT = 64 * 1024;
export const JSON_BODY_LIMIT = 64 * 1024;

/** Spec §5/§9: product images up to 10 MB. */
export const PRODUCT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** Spec §5 "Images": profile pictures up to 5 MB (checked in the browser and on the server). */
export const PROFILE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Issue 26: a seller's logo for quotes, up to 2 MB (re-encoded to a small JPEG; the no-JS form posts it to /profile). */
export const BUSINESS_LOGO_MAX_BYTES = 2 * 1024 * 1024;

/**
 * A logo's pixel limit, far below the pictures' 40 MP (a 39.7 MP PNG took ~250 ms to decode): the
 * logo is scaled to 800 px anyway; 16 MP is a 4000 × 4000 export.
 */
export const BUSINESS_LOGO_MAX_PIXELS = 16_000_000;

/** Largest body the local upload route accepts (spec: profile picture and generic uploader, 5 MB). */
export const MAX_UPLOAD_BYTES = PROFILE_IMAGE_MAX_BYTES;

/** The most a slicer file may be (issue 13: 1 GB); larger ones are refused before reading. */
export const SLICER_MAX_BYTES = 1024 * 1024 * 1024;

/** What a slicer upload's body may carry beside the file (the calculator's texts, part headers, skipped parts). */
export const SLICER_BODY_OVERHEAD_BYTES = 1024 * 1024;

/**
 * The largest body a no-JS upload form (calculator image, profile picture)
 * still answers within its page: the multipart reader drops a file over its
 * cap unread and keeps the typed texts, so the page can show the spec's
 * message next to them. Larger bodies get the bare 413.
 */
export const UPLOAD_FORM_IN_PAGE_BYTES = 64 * 1024 * 1024;

/** Each text field of a multipart body (the form limit; a longer one is a broken request). */
export const MULTIPART_FIELD_MAX_BYTES = FORM_BODY_LIMIT;
