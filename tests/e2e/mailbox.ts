import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Reads the mails the e2e server "sent": without SMTP settings it writes each
 * mail as an .eml file to <DATA_DIR>/mail/ (playwright.config.ts sets
 * DATA_DIR=tests/.tmp/e2e). A small MIME reader: multipart bodies, quoted-
 * printable and base64 transfer encodings, RFC 2047 encoded subjects.
 */

export const MAIL_DIR = path.resolve(process.env.E2E_DATA_DIR ?? 'tests/.tmp/e2e', 'mail');

export type Mail = {
  file: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  /** File modification time (ms). */
  time: number;
};

type Part = { headers: Map<string, string>; body: Buffer };

/** A unique address per test run and test; the database is shared by all tests of a run. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/**
 * Waits for the newest mail to `to` (written at or after `since`) that
 * satisfies `match`, polling the folder.
 */
export async function waitForMail(
  to: string,
  { since = 0, match, timeout = 20_000 }: { since?: number; match?: (mail: Mail) => boolean; timeout?: number } = {},
): Promise<Mail> {
  const deadline = Date.now() + timeout;
  const wanted = to.toLowerCase();
  for (;;) {
    const mails = (await readMails(since)).filter((mail) => mail.to.toLowerCase().includes(wanted) && (!match || match(mail)));
    if (mails.length > 0) return mails.sort((a, b) => b.time - a.time || b.file.localeCompare(a.file))[0];
    if (Date.now() > deadline) throw new Error(`No mail to ${to} in ${MAIL_DIR} within ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The first http(s) link of a mail (optionally the first one containing `contains`). */
export function firstLink(mail: Mail, contains?: string): string {
  const link = mail.links.find((candidate) => !contains || candidate.includes(contains));
  if (!link) throw new Error(`No link${contains ? ` containing ${contains}` : ''} in mail "${mail.subject}":\n${mail.text}`);
  return link;
}

/**
 * Waits for a mail to `to` and returns its first link containing `contains`;
 * links in `exclude` (e.g. one already used) do not count, so a resent mail can be awaited.
 */
export async function waitForLink(
  to: string,
  contains: string,
  { exclude = [], ...options }: { since?: number; timeout?: number; exclude?: string[] } = {},
): Promise<string> {
  const wanted = (link: string) => link.includes(contains) && !exclude.includes(link);
  const mail = await waitForMail(to, { ...options, match: (candidate) => candidate.links.some(wanted) });
  const link = mail.links.find(wanted);
  if (!link) throw new Error(`No link containing ${contains} in mail "${mail.subject}"`);
  return link;
}

async function readMails(since: number): Promise<Mail[]> {
  let names: string[];
  try {
    names = (await fs.readdir(MAIL_DIR)).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
  const mails: Mail[] = [];
  for (const name of names) {
    const file = path.join(MAIL_DIR, name);
    try {
      const stat = await fs.stat(file);
      if (stat.mtimeMs < since) continue;
      const mail = parseMail(await fs.readFile(file), file, stat.mtimeMs);
      if (mail) mails.push(mail);
    } catch {
      // Being written right now: the next poll reads it.
    }
  }
  return mails;
}

export function parseMail(raw: Buffer, file = '', time = 0): Mail | null {
  const root = parsePart(raw);
  if (!root.headers.has('to')) return null;
  const texts: string[] = [];
  const htmls: string[] = [];
  collectBodies(root, texts, htmls);
  const text = texts.join('\n');
  const html = htmls.join('\n');
  if (!text && !html) return null;
  return {
    file,
    to: decodeWords(root.headers.get('to') ?? ''),
    subject: decodeWords(root.headers.get('subject') ?? ''),
    text,
    html,
    links: extractLinks(text || htmlToText(html)),
    time,
  };
}

function parsePart(raw: Buffer): Part {
  const source = raw.toString('latin1');
  const separator = /\r?\n\r?\n/.exec(source);
  const head = separator ? source.slice(0, separator.index) : source;
  const bodyStart = separator ? separator.index + separator[0].length : source.length;
  const headers = new Map<string, string>();
  // Unfold continuation lines, then read "Name: value".
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    // Raw 8-bit header values (SMTPUTF8 addresses) are UTF-8.
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), Buffer.from(line.slice(colon + 1).trim(), 'latin1').toString('utf8'));
  }
  return { headers, body: Buffer.from(source.slice(bodyStart), 'latin1') };
}

function collectBodies(part: Part, texts: string[], htmls: string[]) {
  const contentType = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    const body = part.body.toString('latin1');
    const pieces = body.split(`--${boundary}`).slice(1);
    for (const piece of pieces) {
      if (piece.startsWith('--')) break;
      collectBodies(parsePart(Buffer.from(piece.replace(/^\r?\n/, ''), 'latin1')), texts, htmls);
    }
    return;
  }
  const charset = /charset="?([^";]+)"?/i.exec(contentType)?.[1]?.toLowerCase() ?? 'utf-8';
  const decoded = decodeTransfer(part.body, part.headers.get('content-transfer-encoding') ?? '7bit');
  const text = new TextDecoder(charset === 'us-ascii' ? 'utf-8' : charset).decode(decoded);
  if (/^text\/html/i.test(contentType)) htmls.push(text);
  else if (/^text\//i.test(contentType)) texts.push(text);
}

function decodeTransfer(body: Buffer, encoding: string): Buffer {
  switch (encoding.trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.toString('latin1').replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return decodeQuotedPrintable(body.toString('latin1'));
    default:
      return body;
  }
}

function decodeQuotedPrintable(input: string): Buffer {
  // Soft line breaks ("=" at the end of a line) join lines; =XX is one byte.
  const joined = input.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const char = joined[i];
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(joined.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=). */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_match, charset: string, kind: string, text: string) => {
      const bytes =
        kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : decodeQuotedPrintable(text.replace(/_/g, ' '));
      return new TextDecoder(charset.toLowerCase()).decode(bytes);
    });
}

function htmlToText(html: string): string {
  return html.replace(/<a\s[^>]*href="([^"]+)"[^>]*>/gi, ' $1 ').replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&');
}

function extractLinks(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"'()\]]+/g)].map((match) => match[0].replace(/[.,;:!?]+$/, ''));
}
