/**
 * The tags of an XML text, read in one pass without regular expressions.
 *
 * Enough for the flat config files slicers write (`<plate>`, `<metadata key=… value=…/>`): a tag's
 * name, whether it closes or closes itself, and its attributes. Text between tags, comments
 * (`<!-- -->`) and declarations (`<?xml ?>`) are skipped. Patterns such as
 * `<plate\b[^>]*>([\s\S]*?)<\/plate>` rescanned the rest of the text from every opening tag; a
 * 2 KB zipped config of 200,000 `<plate>` held a worker for 115 s (issue 18 §1). Here every
 * character is looked at a bounded number of times, and a text whose tags stop closing ends the scan.
 */
export type XmlTag = {
  name: string;
  /** `</name>` */
  closing: boolean;
  /** `<name … />` */
  selfClosing: boolean;
  attributes: Map<string, string>;
};

export function* xmlTags(xml: string): Generator<XmlTag> {
  let position = 0;
  for (;;) {
    const open = xml.indexOf('<', position);
    if (open === -1) return;
    const close = xml.indexOf('>', open + 1);
    // No `>` after this `<`: no later tag can be complete either.
    if (close === -1) return;
    position = close + 1;
    const first = xml[open + 1];
    if (first === '!' || first === '?') continue;
    const closing = first === '/';
    let body = xml.slice(open + (closing ? 2 : 1), close);
    const selfClosing = !closing && body.endsWith('/');
    if (selfClosing) body = body.slice(0, -1);
    const nameEnd = skipName(body, 0);
    if (nameEnd === 0) continue;
    yield { name: body.slice(0, nameEnd), closing, selfClosing, attributes: closing ? new Map() : readAttributes(body, nameEnd) };
  }
}

/** `key="value"` (or single quotes) pairs; the first of a repeated name counts, as in a DOM. */
function readAttributes(body: string, from: number): Map<string, string> {
  const attributes = new Map<string, string>();
  let at = from;
  for (;;) {
    at = skipBlanks(body, at);
    const nameEnd = skipName(body, at);
    if (nameEnd === at) return attributes;
    const name = body.slice(at, nameEnd);
    at = skipBlanks(body, nameEnd);
    if (body[at] !== '=') continue;
    at = skipBlanks(body, at + 1);
    const quote = body[at];
    if (quote !== '"' && quote !== "'") return attributes;
    const end = body.indexOf(quote, at + 1);
    if (end === -1) return attributes;
    if (!attributes.has(name)) attributes.set(name, body.slice(at + 1, end));
    at = end + 1;
  }
}

function isBlank(code: number) {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

function skipBlanks(text: string, from: number) {
  let at = from;
  while (at < text.length && isBlank(text.charCodeAt(at))) at++;
  return at;
}

/** A name runs up to a blank, `=`, `/`, `>`, a quote or `<`. */
function skipName(text: string, from: number) {
  let at = from;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (isBlank(code) || code === 61 || code === 47 || code === 62 || code === 34 || code === 39 || code === 60) break;
    at++;
  }
  return at;
}
