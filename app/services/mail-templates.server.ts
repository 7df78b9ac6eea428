import { getServerT } from '~/i18n.server';
// Types only: the settings store reads its German defaults from i18n directly, so no cycle.
import type { ContactConfig, EmailConfig } from './admin-settings.server';
import designTokens from '../../tailwind.config';

export type MailTemplate =
  | 'verifyEmail'
  | 'confirmNewEmail'
  | 'resetPassword'
  | 'signInLink'
  | 'accountExists'
  | 'emailChangeRequested'
  | 'emailInUse'
  | 'contactNotification'
  | 'contactAutoReply'
  | 'quote'
  | 'premiumStarted'
  | 'premiumEnded'
  | 'paymentFailed'
  | 'test';

export const MAIL_TEMPLATES: readonly MailTemplate[] = [
  'verifyEmail',
  'confirmNewEmail',
  'resetPassword',
  'signInLink',
  'accountExists',
  'emailChangeRequested',
  'emailInUse',
  'contactNotification',
  'contactAutoReply',
  'quote',
  'premiumStarted',
  'premiumEnded',
  'paymentFailed',
  'test',
];

export type RenderedMail = { subject: string; html: string; text: string };

let cachedT: ReturnType<typeof getServerT> | undefined;
/** The German `t` for the mail namespace (the resources are static, so one instance serves every mail). */
export function getMailT(): ReturnType<typeof getServerT> {
  cachedT ??= getServerT('mail');
  return cachedT;
}

export type TemplateSettings = { email: EmailConfig; contact: ContactConfig; appUrl: string };

/**
 * What each template reads from `data` (all plain text; HTML escaping happens here):
 * - verifyEmail: link (required), name
 * - confirmNewEmail (to a new address typed on the profile): link (required), newEmail (required), name
 * - resetPassword: link (required), name
 * - signInLink: link (required), name — texts in the `signin` namespace (models/sign-in-links.server.ts)
 * - accountExists: name, signInLink, resetLink (default: <app>/auth and <app>/forgot-password)
 * - emailChangeRequested (to the current address): newEmail (required), profileLink, name
 * - emailInUse (to an address someone tried to take over): profileLink, name
 * - contactNotification: name, email, subject, message (all required)
 * - contactAutoReply: nothing — it repeats none of the sender's text, so the
 *   form cannot be used to mail arbitrary content to arbitrary addresses
 * - quote: subject, message (the seller's own words, sent with the quote's PDF), sender (business or
 *   account name), accountEmail (the seller's verified account address) — all required; a fixed line
 *   names the sender's account and that it was sent via Druckpreis, with where to report it
 * - premiumStarted, premiumEnded: name
 * - paymentFailed: name, actionRequired ('1' when the bank asks for a confirmation)
 * - test: nothing
 */
export class MailDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailDataError';
  }
}

type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'button'; label: string; url: string }
  | { kind: 'fields'; rows: [label: string, value: string][] }
  | { kind: 'quote'; text: string }
  | { kind: 'muted'; text: string };

type Content = {
  subject: string;
  preheader: string;
  /** Name for "Hallo {name},"; null: "Hallo,"; false: no greeting (the text brings its own). */
  greetingName: string | null | false;
  blocks: Block[];
  signOff: boolean;
};

export async function renderMailTemplate(
  template: MailTemplate,
  data: Record<string, string>,
  settings: TemplateSettings,
): Promise<RenderedMail> {
  const content = await buildContent(template, data, settings);
  const t = await getMailT();
  const layout = {
    greeting:
      content.greetingName === false ? '' : content.greetingName ? t('layout.greeting', { name: content.greetingName }) : t('layout.greetingAnonymous'),
    buttonFallback: t('layout.buttonFallback'),
    signOff: t('layout.signOff'),
    signature: t('layout.signature'),
    footer: t('layout.footer'),
    brand: t('layout.brand'),
    tagline: t('layout.tagline'),
  };
  return {
    subject: headerText(content.subject),
    html: renderHtml(content, layout),
    text: renderText(content, layout),
  };
}

async function buildContent(template: MailTemplate, data: Record<string, string>, settings: TemplateSettings): Promise<Content> {
  const t = await getMailT();
  const name = optionalName(data.name);
  const base = settings.appUrl.replace(/\/+$/, '');
  switch (template) {
    case 'verifyEmail': {
      const link = httpUrl(data.link, 'link');
      return {
        subject: settings.email.verificationSubject,
        preheader: t('verifyEmail.preheader'),
        greetingName: name,
        blocks: [
          { kind: 'paragraph', text: t('verifyEmail.intro') },
          { kind: 'button', label: t('verifyEmail.button'), url: link },
          { kind: 'paragraph', text: t('verifyEmail.validity') },
          { kind: 'muted', text: t('verifyEmail.ignore') },
        ],
        signOff: true,
      };
    }
    case 'confirmNewEmail': {
      const link = httpUrl(data.link, 'link');
      return {
        subject: t('confirmNewEmail.subject'),
        preheader: t('confirmNewEmail.preheader'),
        greetingName: name,
        blocks: [
          { kind: 'paragraph', text: t('confirmNewEmail.intro') },
          { kind: 'fields', rows: [[t('confirmNewEmail.newAddress'), required(data, 'newEmail')]] },
          { kind: 'button', label: t('confirmNewEmail.button'), url: link },
          { kind: 'paragraph', text: t('confirmNewEmail.validity') },
          { kind: 'muted', text: t('confirmNewEmail.ignore') },
        ],
        signOff: true,
      };
    }
    case 'resetPassword': {
      const link = httpUrl(data.link, 'link');
      return {
        subject: t('resetPassword.subject'),
        preheader: t('resetPassword.preheader'),
        greetingName: name,
        blocks: [
          { kind: 'paragraph', text: t('resetPassword.intro') },
          { kind: 'button', label: t('resetPassword.button'), url: link },
          { kind: 'paragraph', text: t('resetPassword.validity') },
          { kind: 'muted', text: t('resetPassword.ignore') },
        ],
        signOff: true,
      };
    }
    case 'signInLink': {
      const link = httpUrl(data.link, 'link');
      return {
        subject: t('signin:mail.subject'),
        preheader: t('signin:mail.preheader'),
        greetingName: name,
        blocks: [
          { kind: 'paragraph', text: t('signin:mail.intro') },
          { kind: 'button', label: t('signin:mail.button'), url: link },
          { kind: 'paragraph', text: t('signin:mail.validity') },
          { kind: 'muted', text: t('signin:mail.ignore') },
        ],
        signOff: true,
      };
    }
    case 'accountExists': {
      const signInLink = httpUrl(data.signInLink || `${base}/auth`, 'signInLink');
      const resetLink = httpUrl(data.resetLink || `${base}/forgot-password`, 'resetLink');
      return {
        subject: t('accountExists.subject'),
        preheader: t('accountExists.preheader'),
        greetingName: name,
        blocks: [
          { kind: 'paragraph', text: t('accountExists.intro') },
          { kind: 'paragraph', text: t('accountExists.signIn') },
          { kind: 'button', label: t('accountExists.signInButton'), url: signInLink },
          { kind: 'paragraph', text: t('accountExists.reset') },
          { kind: 'button', label: t('accountExists.resetButton'), url: resetLink },
          { kind: 'muted', text: t('accountExists.ignore') },
        ],
        signOff: true,
      };
    }
    case 'emailChangeRequested': {
      const profileLink = httpUrl(data.profileLink || `${base}/profile`, 'profileLink');
      return {
        subject: t('emailChangeRequested.subject'),
        preheader: t('emailChangeRequested.preheader'),
        greetingName: name,
        blocks: [
          { kind: 'paragraph', text: t('emailChangeRequested.intro') },
          { kind: 'fields', rows: [[t('emailChangeRequested.newAddress'), required(data, 'newEmail')]] },
          { kind: 'paragraph', text: t('emailChangeRequested.stillActive') },
          { kind: 'paragraph', text: t('emailChangeRequested.cancel') },
          { kind: 'button', label: t('emailChangeRequested.button'), url: profileLink },
        ],
        signOff: true,
      };
    }
    case 'emailInUse': {
      const profileLink = httpUrl(data.profileLink || `${base}/profile`, 'profileLink');
      return {
        subject: t('emailInUse.subject'),
        preheader: t('emailInUse.preheader'),
        greetingName: name,
        blocks: [
          { kind: 'paragraph', text: t('emailInUse.intro') },
          { kind: 'paragraph', text: t('emailInUse.unchanged') },
          { kind: 'button', label: t('emailInUse.button'), url: profileLink },
        ],
        signOff: true,
      };
    }
    case 'contactNotification': {
      const sender = required(data, 'name');
      const email = required(data, 'email');
      const subject = required(data, 'subject');
      const message = required(data, 'message');
      return {
        subject: t('contactNotification.subject', { subject: headerText(subject) }),
        preheader: t('contactNotification.preheader'),
        greetingName: null,
        blocks: [
          { kind: 'paragraph', text: t('contactNotification.intro') },
          {
            kind: 'fields',
            rows: [
              [t('contactNotification.name'), sender],
              [t('contactNotification.email'), email],
              [t('contactNotification.subjectLabel'), subject],
            ],
          },
          { kind: 'paragraph', text: `${t('contactNotification.message')}:` },
          { kind: 'quote', text: message },
          { kind: 'muted', text: t('contactNotification.replyHint') },
        ],
        signOff: false,
      };
    }
    case 'contactAutoReply':
      return {
        subject: settings.contact.autoReplySubject,
        preheader: t('contactAutoReply.preheader'),
        greetingName: null,
        blocks: [
          { kind: 'paragraph', text: settings.contact.autoReplyMessage },
          { kind: 'muted', text: t('contactAutoReply.doNotReply') },
        ],
        signOff: true,
      };
    case 'quote':
      return {
        subject: headerText(required(data, 'subject')),
        preheader: t('quote.preheader'),
        greetingName: false,
        blocks: [
          { kind: 'paragraph', text: required(data, 'message') },
          { kind: 'muted', text: t('quote.attachmentNote') },
          // Fixed, after the seller's free text: who sent it (the verified account address) and where to report it.
          {
            kind: 'muted',
            text: t('quote.sentVia', { sender: singleLine(required(data, 'sender')), accountEmail: required(data, 'accountEmail'), reportUrl: `${base}/kontakt` }),
          },
        ],
        signOff: false,
      };
    case 'premiumStarted':
    case 'premiumEnded':
    case 'paymentFailed': {
      // Texts in the premium namespace (issue 21), links to /premium.
      const p = await getServerT('premium');
      const premiumLink = httpUrl(`${base}/premium`, 'link');
      const k = `mail.${template}`;
      const blocks: Block[] = [{ kind: 'paragraph', text: p(`${k}.intro`) }];
      if (template === 'premiumStarted') blocks.push({ kind: 'paragraph', text: p(`${k}.manage`) });
      if (template === 'premiumEnded') blocks.push({ kind: 'paragraph', text: p(`${k}.again`) });
      if (template === 'paymentFailed') {
        if (data.actionRequired) blocks.push({ kind: 'paragraph', text: p(`${k}.actionRequired`) });
        blocks.push({ kind: 'paragraph', text: p(`${k}.update`) });
      }
      blocks.push({ kind: 'button', label: p(`${k}.button`), url: premiumLink });
      return { subject: p(`${k}.subject`), preheader: p(`${k}.preheader`), greetingName: name, blocks, signOff: true };
    }
    case 'test':
      return {
        subject: t('test.subject'),
        preheader: t('test.preheader'),
        greetingName: null,
        blocks: [{ kind: 'paragraph', text: t('test.intro') }],
        signOff: true,
      };
    default:
      throw new MailDataError(`Unknown mail template: ${String(template)}`);
  }
}

type Layout = Record<'greeting' | 'buttonFallback' | 'signOff' | 'signature' | 'footer' | 'brand' | 'tagline', string>;

// ---------------------------------------------------------------------------
// Plain text

function renderText(content: Content, layout: Layout): string {
  const parts: string[] = layout.greeting ? [layout.greeting] : [];
  for (const block of content.blocks) {
    switch (block.kind) {
      case 'paragraph':
      case 'muted':
        parts.push(block.text);
        break;
      case 'button':
        parts.push(`${block.label}:\n${block.url}`);
        break;
      case 'fields':
        parts.push(block.rows.map(([label, value]) => `${label}: ${singleLine(value)}`).join('\n'));
        break;
      case 'quote':
        parts.push(
          block.text
            .replace(/\r\n?/g, '\n')
            .split('\n')
            .map((line) => `> ${line}`)
            .join('\n'),
        );
        break;
    }
  }
  if (content.signOff) parts.push(`${layout.signOff}\n${layout.signature}`);
  parts.push(`-- \n${layout.footer}`);
  return `${parts.join('\n\n')}\n`;
}

// ---------------------------------------------------------------------------
// HTML: a single-column table layout with inline styles (what mail clients render reliably).

const FONT = "font-family:Arial,Helvetica,sans-serif;";
/*
 * Mail clients ignore stylesheets, so colours are inlined; they come from the
 * design tokens (tailwind.config.ts), so every mail carries the product's
 * teal, never a colour of its own. brand 600 passes WCAG AA with white text.
 */
const { colors: tokens } = designTokens.theme.extend;
const COLORS = {
  text: tokens.ink.DEFAULT,
  muted: tokens.ink.muted,
  brand: tokens.brand[600],
  link: tokens.brand[700],
  border: tokens.surface.line,
  background: tokens.surface.subtle,
};

function renderHtml(content: Content, layout: Layout): string {
  const hasButton = content.blocks.some((block) => block.kind === 'button');
  const body: string[] = layout.greeting ? [paragraph(escapeHtml(layout.greeting))] : [];
  for (const block of content.blocks) {
    switch (block.kind) {
      case 'paragraph':
        body.push(paragraph(multiline(block.text)));
        break;
      case 'muted':
        body.push(`<p style="margin:0 0 16px;${FONT}font-size:13px;line-height:1.5;color:${COLORS.muted};">${multiline(block.text)}</p>`);
        break;
      case 'button':
        body.push(button(block.label, block.url));
        break;
      case 'fields':
        body.push(
          `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;border-collapse:collapse;">${block.rows
            .map(
              ([label, value]) =>
                `<tr><td style="padding:4px 16px 4px 0;${FONT}font-size:15px;font-weight:bold;color:${COLORS.text};vertical-align:top;">${escapeHtml(label)}</td><td style="padding:4px 0;${FONT}font-size:15px;color:${COLORS.text};">${escapeHtml(singleLine(value))}</td></tr>`,
            )
            .join('')}</table>`,
        );
        break;
      case 'quote':
        body.push(
          `<div style="margin:0 0 16px;padding:12px 16px;border-left:4px solid ${COLORS.border};background:${COLORS.background};${FONT}font-size:15px;line-height:1.5;color:${COLORS.text};">${multiline(block.text)}</div>`,
        );
        break;
    }
  }
  if (hasButton) {
    const links = content.blocks.filter((block) => block.kind === 'button');
    body.push(
      `<p style="margin:0 0 16px;${FONT}font-size:13px;line-height:1.5;color:${COLORS.muted};">${escapeHtml(layout.buttonFallback)}${links
        .map((link) => `<br><a href="${escapeHtml(link.url)}" style="color:${COLORS.link};word-break:break-all;">${escapeHtml(link.url)}</a>`)
        .join('')}</p>`,
    );
  }
  if (content.signOff) body.push(paragraph(`${escapeHtml(layout.signOff)}<br>${escapeHtml(layout.signature)}`));

  return `<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(headerText(content.subject))}</title>
</head>
<body style="margin:0;padding:0;background:${COLORS.background};">
<span style="display:none;max-height:0;overflow:hidden;opacity:0;">${escapeHtml(content.preheader)}</span>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${COLORS.background};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;border:1px solid ${COLORS.border};border-radius:8px;">
<tr><td style="padding:20px 32px;border-bottom:1px solid ${COLORS.border};${FONT}">
<span style="font-size:20px;font-weight:bold;color:${COLORS.brand};">${escapeHtml(layout.brand)}</span>
<span style="font-size:14px;color:${COLORS.muted};"> – ${escapeHtml(layout.tagline)}</span>
</td></tr>
<tr><td style="padding:24px 32px 8px;">
${body.join('\n')}
</td></tr>
<tr><td style="padding:16px 32px;border-top:1px solid ${COLORS.border};${FONT}font-size:12px;line-height:1.5;color:${COLORS.muted};">${escapeHtml(layout.footer)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

function paragraph(innerHtml: string): string {
  return `<p style="margin:0 0 16px;${FONT}font-size:15px;line-height:1.5;color:${COLORS.text};">${innerHtml}</p>`;
}

function button(label: string, url: string): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;"><tr><td style="border-radius:6px;background:${COLORS.brand};"><a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 24px;${FONT}font-size:15px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(label)}</a></td></tr></table>`;
}

// ---------------------------------------------------------------------------
// Input checks

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function multiline(text: string): string {
  return escapeHtml(text.replace(/\r\n?/g, '\n')).replace(/\n/g, '<br>');
}

/** Text safe for one header line: control characters (CR, LF, tabs, ...) become spaces. */
export function headerText(value: string, maxLength = 200): string {
  const flat = value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
}

function singleLine(value: string): string {
  return headerText(value, 500);
}

/**
 * A name for the greeting, the first line of the mail. Names are chosen by
 * whoever registers, so one that could be read as a link or an address
 * ("Gewinn auf evil.example", "http://…") is left out: the greeting becomes
 * "Hallo,", and nothing a stranger typed opens the mail.
 */
function optionalName(value: string | undefined): string | null {
  const name = value ? headerText(value, 60) : '';
  if (!name || LINK_LIKE.test(name)) return null;
  return name;
}

const LINK_LIKE = /[:/\\@<>]|www\.|\p{L}\.\p{L}/iu;

function required(data: Record<string, string>, key: string): string {
  const value = data[key];
  if (typeof value !== 'string' || !value.trim()) throw new MailDataError(`Mail data "${key}" is required`);
  return value.trim();
}

/** Links go into href attributes: only absolute http(s) URLs. */
function httpUrl(value: string | undefined, key: string): string {
  if (!value) throw new MailDataError(`Mail data "${key}" is required`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new MailDataError(`Mail data "${key}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new MailDataError(`Mail data "${key}" must be an http(s) URL`);
  return url.toString();
}
