import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';

/** One mail as it arrived over SMTP, with the MIME parts decoded. */
export type ReceivedMail = {
  envelope: { from: string; to: string[] };
  /** The DATA stream exactly as received. */
  raw: string;
  /** Header lines (unfolded), as they were sent. */
  headerLines: string[];
  /** Decoded value of the first header with that name (case-insensitive). */
  header(name: string): string | undefined;
  subject: string;
  text: string;
  html: string;
};

export type TestSmtpServer = {
  port: number;
  /** Every mail received since start (across restarts), in order. */
  messages: ReceivedMail[];
  /** Stops listening (connections are refused until start()). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Resolves once `count` mails have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
};

/**
 * A real SMTP server on a random loopback port for integration tests.
 * Recipients starting with `reject` get a permanent 550; `delayMs` slows every
 * DATA answer (widens race windows in concurrency tests).
 */
export async function startTestSmtpServer(options: { delayMs?: number } = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  let server: SMTPServer | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const instance = new SMTPServer({
        authOptional: true,
        disabledCommands: ['AUTH', 'STARTTLS'],
        logger: false,
        closeTimeout: 1000,
        onRcptTo(address, _session, callback) {
          if (address.address.startsWith('reject')) {
            callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
          } else {
            callback();
          }
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            const raw = Buffer.concat(chunks).toString('utf8');
            const done = () => {
              messages.push(
                parseMail(raw, {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                  to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
                }),
              );
              callback();
            };
            if (options.delayMs) setTimeout(done, options.delayMs);
            else done();
          });
        },
      });
      instance.on('error', () => {});
      instance.server.once('error', reject);
      instance.listen(port, '127.0.0.1', () => {
        port = (instance.server.address() as { port: number }).port;
        server = instance;
        resolve();
      });
    });

  await listen();
  return {
    get port() {
      return port;
    },
    messages,
    stop: () =>
      new Promise<void>((resolve) => {
        const current = server;
        server = undefined;
        if (current) current.close(() => resolve());
        else resolve();
      }),
    start: listen,
    async waitFor(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} mails, got ${messages.length}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

// ---------------------------------------------------------------------------
// A minimal MIME reader: enough for what nodemailer writes (multipart/alternative,
// quoted-printable or base64 parts, encoded-word headers; UTF-8 throughout).

export function parseMail(raw: string, envelope: { from: string; to: string[] }): ReceivedMail {
  const { headerLines, body } = splitHeaders(raw);
  const header = (name: string) => {
    const prefix = `${name.toLowerCase()}:`;
    const line = headerLines.find((candidate) => candidate.toLowerCase().startsWith(prefix));
    return line === undefined ? undefined : decodeWords(line.slice(prefix.length).trim());
  };
  const parts: { type: string; content: string }[] = [];
  collectParts(headerLines, body, parts);
  return {
    envelope,
    raw,
    headerLines,
    header,
    subject: header('subject') ?? '',
    text: parts.find((part) => part.type === 'text/plain')?.content ?? '',
    html: parts.find((part) => part.type === 'text/html')?.content ?? '',
  };
}

function splitHeaders(raw: string): { headerLines: string[]; body: string } {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? '' : normalized.slice(end + 2);
  const headerLines: string[] = [];
  for (const line of head.split('\n')) {
    if (/^[ \t]/.test(line) && headerLines.length > 0) headerLines[headerLines.length - 1] += ` ${line.trim()}`;
    else headerLines.push(line);
  }
  return { headerLines, body };
}

function headerValue(lines: string[], name: string): string {
  const prefix = `${name.toLowerCase()}:`;
  return lines.find((line) => line.toLowerCase().startsWith(prefix))?.slice(prefix.length).trim() ?? '';
}

function collectParts(headerLines: string[], body: string, parts: { type: string; content: string }[]) {
  const contentType = headerValue(headerLines, 'content-type') || 'text/plain';
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) return;
    const sections = body.split(`--${boundary}`);
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      const part = splitHeaders(section.replace(/^\n/, ''));
      collectParts(part.headerLines, part.body, parts);
    }
    return;
  }
  const encoding = headerValue(headerLines, 'content-transfer-encoding').toLowerCase();
  let content: string;
  if (encoding === 'base64') content = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (encoding === 'quoted-printable') content = decodeQuotedPrintable(body);
  else content = body;
  parts.push({ type, content: content.replace(/\r\n/g, '\n') });
}

function decodeQuotedPrintable(input: string): string {
  const withoutSoftBreaks = input.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < withoutSoftBreaks.length; i++) {
    const char = withoutSoftBreaks[i];
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(withoutSoftBreaks.slice(i + 1, i + 3))) {
      bytes.push(parseInt(withoutSoftBreaks.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=); whitespace between adjacent words is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_match, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

/**
 * A test file's SMTP server: started before its tests with SMTP_URL pointing at it (the app's
 * mail settings without admin settings), stopped after them. Read `.server` inside the tests.
 */
export function useTestSmtpServer(options: { delayMs?: number } = {}) {
  const context = {} as { server: TestSmtpServer };
  beforeAll(async () => {
    context.server = await startTestSmtpServer(options);
    process.env.SMTP_URL = `smtp://127.0.0.1:${context.server.port}`;
  });
  afterAll(async () => {
    delete process.env.SMTP_URL;
    await context.server?.stop();
  });
  return {
    get server() {
      return context.server;
    },
  };
}
