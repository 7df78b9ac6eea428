import http from 'node:http';

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/**
 * One request with full control over what goes on the wire (Host header,
 * declared Content-Length, chunked bodies), which fetch() does not allow.
 * `bodyBytes` larger than what is sent: the server must answer without
 * waiting for the rest. Connection errors after an answer are ignored.
 */
export function rawRequest(
  url: string,
  { method = 'GET', path = '/', headers = {}, body, chunks }: {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
    /** Sent with Transfer-Encoding: chunked, one write each. */
    chunks?: Buffer[];
  },
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let answer: { status: number; headers: http.IncomingHttpHeaders; parts: Buffer[] } | null = null;
    const settle = () => answer && resolve({ status: answer.status, headers: answer.headers, body: Buffer.concat(answer.parts) });
    // A connection per request: a reused keep-alive socket the server is just closing would fail for the wrong reason.
    const request = http.request({ host: hostname, port, method, path, headers, agent: false, setHost: !('Host' in headers || 'host' in headers) }, (response) => {
      answer = { status: response.statusCode ?? 0, headers: response.headers, parts: [] };
      response.on('data', (part: Buffer) => answer!.parts.push(part));
      response.on('end', settle);
      response.on('error', () => settle());
    });
    // A server that refused the body may close while the rest is still being sent: once its answer is in,
    // a broken pipe on our side is how that ends, not a failure.
    request.on('error', (error: NodeJS.ErrnoException) => (answer && /^(EPIPE|ECONNRESET)$/.test(error.code ?? '') ? settle() : reject(error)));
    if (chunks) {
      // One chunk at a time, a moment apart, as a slow client sends; no more once the server has answered.
      const write = (index: number) => {
        if (answer || index >= chunks.length || request.destroyed) return request.end();
        request.write(chunks[index], () => setTimeout(() => write(index + 1), 5));
      };
      write(0);
    } else {
      if (body !== undefined) request.write(body);
      // A declared length longer than the body: keep the request open, the server must answer first.
      if (!headers['Content-Length'] || Number(headers['Content-Length']) <= Buffer.byteLength(body ?? '')) request.end();
    }
  });
}
