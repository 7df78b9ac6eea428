/**
 * Rate limits per action, before RATE_LIMIT_FACTOR scales them. Every rule
 * counts one attempt per request in a fixed window; a request is refused as
 * soon as one of its rules is over the limit.
 *
 * - `ip`: per client IP (slows one machine down whatever address it tries)
 * - `email`: per e-mail address (protects one mailbox/account from many machines)
 * - `ipEmail`: per IP and address together (password guessing on one account)
 */
export type RateLimitScope = 'ip' | 'email' | 'ipEmail';

export type RateLimitRule = { scope: RateLimitScope; limit: number; windowSeconds: number };

const MINUTE = 60;
const HOUR = 60 * MINUTE;

export const RATE_LIMIT_RULES = {
  login: [
    { scope: 'ipEmail', limit: 10, windowSeconds: 15 * MINUTE },
    { scope: 'ip', limit: 50, windowSeconds: 15 * MINUTE },
    // High enough that a stranger cannot easily lock someone out, low enough to stop a botnet guessing one password.
    { scope: 'email', limit: 100, windowSeconds: HOUR },
  ],
  register: [
    { scope: 'ip', limit: 5, windowSeconds: HOUR },
    // Each attempt mails the address ("confirm" or "account exists"): do not let anyone flood a mailbox.
    { scope: 'email', limit: 5, windowSeconds: HOUR },
  ],
  forgotPassword: [
    { scope: 'email', limit: 5, windowSeconds: HOUR },
    { scope: 'ip', limit: 20, windowSeconds: HOUR },
  ],
  resendVerification: [
    { scope: 'email', limit: 3, windowSeconds: HOUR },
    { scope: 'ip', limit: 10, windowSeconds: HOUR },
  ],
  contact: [
    { scope: 'ip', limit: 5, windowSeconds: HOUR },
    { scope: 'email', limit: 5, windowSeconds: HOUR },
  ],
  // Reading a slicer file costs a streamed upload (up to 1 GB) but sends no mail:
  // generous for a seller trying a few files, a wall for a script.
  slicerImport: [{ scope: 'ip', limit: 60, windowSeconds: 10 * MINUTE }],
} as const satisfies Record<string, readonly RateLimitRule[]>;
