import type express from 'express';
import {
  BODY_TOO_LARGE_MESSAGE,
  bodyRuleFor,
  checkHostHeaders,
  checkLegacyDataRequest,
  checkMethodAndType,
  checkRequestTarget,
  DRAINED_REFUSAL_BYTES,
  type Refusal,
} from '../../app/server/request-guard.server';

/**
 * Express middleware in front of Remix (rules in app/server/request-guard.server.ts):
 * refuses malformed host headers, legacy data requests, wrong methods and content types, and
 * bodies over their route's limit — while the body streams, before anything
 * reads it, so an oversized body never costs more memory than the limit.
 */
export function requestGuard({ trustProxy }: { trustProxy: boolean }): express.RequestHandler {
  return (req, res, next) => {
    const hostRefusal = checkHostHeaders(req.headers, trustProxy);
    if (hostRefusal) return refuse(req, res, hostRefusal);
    // An absolute-form target (`GET http://host/path`) made Express answer its English 500.
    const target = checkRequestTarget(req.url, req.headers.host);
    if (typeof target !== 'string') return refuse(req, res, target);
    if (target !== req.url) req.url = req.originalUrl = target;
    const query = req.originalUrl.indexOf('?');
    const dataRefusal = query === -1 ? null : checkLegacyDataRequest(req.originalUrl.slice(query + 1));
    if (dataRefusal) return refuse(req, res, dataRefusal);

    const declared = req.headers['content-length'];
    const chunked = /chunked/i.test(String(req.headers['transfer-encoding'] ?? ''));
    const hasBody = chunked || (declared !== undefined && declared !== '0');
    const typeRefusal = checkMethodAndType(req.method, req.path, req.headers['content-type'], hasBody);
    if (typeRefusal) return refuse(req, res, typeRefusal);
    if (!hasBody) return next();

    const { limit, streamed, tooLargeMessage, answeredInPageUpTo } = bodyRuleFor(req.path, req.headers['content-type']);
    const tooLarge: Refusal = { status: 413, message: tooLargeMessage ?? BODY_TOO_LARGE_MESSAGE };
    if (declared !== undefined && !chunked) {
      // node's parser guarantees the body is exactly Content-Length bytes.
      if (Number(declared) <= limit) return next();
      // A no-JS upload form answers an oversized file within its page (the route skips the file).
      if (answeredInPageUpTo !== undefined && Number(declared) <= answeredInPageUpTo) return next();
      return refuse(req, res, tooLarge);
    }
    // A streamed route counts its own bytes as it reads them.
    if (streamed) return next();
    holdChunkedBody(req, limit, () => refuse(req, res, tooLarge), next);
  };
}

/**
 * A body without Content-Length is collected (up to `limit`) as node's
 * parser pushes it, and handed on only once it is complete: Remix never sees
 * a truncated body, and a body over the limit is refused without being kept.
 */
function holdChunkedBody(req: express.Request, limit: number, onTooLarge: () => void, onComplete: () => void) {
  const push = req.push.bind(req);
  const held: { chunk: Buffer; encoding?: BufferEncoding }[] = [];
  let received = req.readableLength;
  let refused = false;
  req.push = (chunk: Buffer | null, encoding?: BufferEncoding) => {
    if (refused) return true; // drop what still arrives for a refused request
    if (chunk === null) {
      req.push = push;
      onComplete();
      for (const item of held) push(item.chunk, item.encoding);
      return push(null);
    }
    received += chunk.length;
    if (received > limit) {
      refused = true;
      held.length = 0;
      onTooLarge();
      return true;
    }
    held.push({ chunk, encoding });
    return true;
  };
}

function refuse(req: express.Request, res: express.Response, refusal: Refusal) {
  // A body of a sane size is read (and dropped) before the answer: closing on a client that is still
  // sending resets the connection, and many clients (fetch among them) then never read the 413.
  const declared = Number(req.headers['content-length'] ?? 0);
  const chunked = /chunked/i.test(String(req.headers['transfer-encoding'] ?? ''));
  if (refusal.status === 413 && !chunked && declared > 0 && declared <= DRAINED_REFUSAL_BYTES && !req.readableEnded) {
    req.on('end', () => answerRefusal(req, res, refusal));
    req.on('error', () => req.socket.destroy());
    req.resume();
    return;
  }
  answerRefusal(req, res, refusal);
}

function answerRefusal(req: express.Request, res: express.Response, refusal: Refusal) {
  const api = /^\/api(?:\/|$)/.test(req.path);
  res.status(refusal.status);
  res.setHeader('Cache-Control', 'no-store');
  for (const [name, value] of Object.entries(refusal.headers ?? {})) res.setHeader(name, value);
  const hasBody = /chunked/i.test(String(req.headers['transfer-encoding'] ?? '')) || Number(req.headers['content-length'] ?? 0) > 0;
  if (refusal.status === 413 || refusal.status === 400 || hasBody) {
    // The rest of the body is not wanted: once the answer is out the connection ends, with a lingering
    // close. Our side closes first (the client sees the end) while whatever still arrives is read and
    // dropped for a second; closing at once would reset a client still sending, which then never reads
    // the answer. The answer says so (Connection: close): a client that pools connections would
    // otherwise send its next request on this one just as it closes ("other side closed").
    res.setHeader('Connection', 'close');
    res.on('finish', () => {
      req.socket.end();
      req.resume();
      setTimeout(() => req.socket.destroy(), 1000).unref();
    });
  }
  if (api || refusal.json) res.json({ message: refusal.message });
  else res.type('text/plain; charset=utf-8').send(refusal.message);
}
