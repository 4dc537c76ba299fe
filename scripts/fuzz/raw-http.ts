import { connect } from 'node:net';

/**
 * HTTP over a bare socket, for requests no HTTP client would send (broken
 * request lines, stray bytes after a body, no Host): writes the bytes as
 * given and parses every response the server sends until it closes.
 */

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed JSON body, read by path
  json: any;
}

function parseResponses(data: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = data;
  while (rest.length) {
    const headerEnd = rest.indexOf('\r\n\r\n');
    if (headerEnd < 0) break;
    const [statusLine, ...headerLines] = rest.subarray(0, headerEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let body: Buffer = Buffer.alloc(0);
    let next = headerEnd + 4;
    if (headers['transfer-encoding'] === 'chunked') {
      const chunks: Buffer[] = [];
      for (;;) {
        const lineEnd = rest.indexOf('\r\n', next);
        const size = parseInt(rest.subarray(next, lineEnd).toString('latin1'), 16);
        next = lineEnd + 2;
        if (!size) {
          next += 2;
          break;
        }
        chunks.push(rest.subarray(next, next + size));
        next += size + 2;
      }
      body = Buffer.concat(chunks);
    } else if (headers['content-length'] === undefined && headers.connection === 'close') {
      // No length: the body runs to the end of the connection (an HTTP/1.0 answer).
      body = rest.subarray(next);
      next = rest.length;
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = rest.subarray(next, next + length);
      next += length;
    }
    const text = body.toString('utf8');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: text, json });
    rest = rest.subarray(next);
  }
  return responses;
}

/** Sends `bytes` on a new connection and resolves with every response once the server closes it (or `endAfter` responses arrived). */
export function rawExchange(
  url: string,
  bytes: string | Buffer,
  options: { endAfter?: number; timeoutMs?: number; readAfterWriting?: boolean } = {},
): Promise<RawResponse[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => {
      // A client that sends its whole request before it reads (as many do) finds the answer only if the connection survives the upload.
      if (options.readAfterWriting) socket.pause();
      socket.write(bytes, () => socket.resume());
    });
    const finish = () => resolve(parseResponses(Buffer.concat(chunks)));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (options.endAfter && parseResponses(Buffer.concat(chunks)).length >= options.endAfter) socket.end();
    });
    socket.on('close', finish);
    // For scripts that must not wait forever on a server that never answers; tests wait for the close.
    if (options.timeoutMs) socket.setTimeout(options.timeoutMs, () => socket.destroy());
    // A connection reset after an answer arrived leaves that answer to be checked.
    socket.on('error', (error) => (chunks.length ? finish() : reject(error)));
  });
}

/** One request written by hand; `headers` in order, a body with its Content-Length. */
export function rawRequest(method: string, target: string, headers: [string, string][], body?: string | Buffer): Buffer {
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
  const lines = [`${method} ${target} HTTP/1.1`, ...headers.map(([name, value]) => `${name}: ${value}`)];
  if (body !== undefined) lines.push(`Content-Length: ${payload.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

/** An Authorization header of AWS Signature Version 4's shape, as the AWS SDK sends to EventBridge (or another service). */
export const sigV4Authorization = (accessKeyId = 'local', signature = 'a'.repeat(64), service = 'events') =>
  `AWS4-HMAC-SHA256 Credential=${accessKeyId}/20260101/local/${service}/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=${signature}`;
