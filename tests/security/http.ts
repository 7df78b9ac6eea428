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
    // A connection per request: a reused keep-alive socket the server is just closing would fail for the wrong reason.
    const request = http.request({ host: hostname, port, method, path, headers, agent: false, setHost: !('Host' in headers || 'host' in headers) }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    if (chunks) {
      const write = (index: number) => {
        if (index >= chunks.length || request.destroyed) return request.end();
        request.write(chunks[index], () => write(index + 1));
      };
      write(0);
    } else {
      if (body !== undefined) request.write(body);
      // A declared length longer than the body: keep the request open, the server must answer first.
      if (!headers['Content-Length'] || Number(headers['Content-Length']) <= Buffer.byteLength(body ?? '')) request.end();
    }
  });
}
