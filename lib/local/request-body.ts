import type { IncomingMessage } from 'node:http';

/**
 * Reading a request body on the local host, for the API Gateway and the
 * EventBridge stand-ins alike: at most `maxBytes`, and text only when the
 * bytes are valid UTF-8 (JSON is UTF-8, RFC 8259), so that nothing is stored
 * with bytes silently replaced by U+FFFD.
 */

export class BodyTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`The request body is larger than ${maxBytes} bytes`);
  }
}

/**
 * A body this much over the limit is not read to its end: the connection is cut, as a flood deserves. Up to it,
 * the rest of a body over the limit is read and dropped before the 413 is answered, so that the client, still
 * writing, reads the answer rather than a connection reset (closing a socket with unread bytes resets it).
 */
const DRAIN_FACTOR = 4;

/** The body's bytes (empty when there is none); rejects with BodyTooLarge when it is over `maxBytes`. */
export async function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes * DRAIN_FACTOR) throw new BodyTooLarge(maxBytes);
    if (size <= maxBytes) chunks.push(chunk as Buffer);
  }
  if (size > maxBytes) throw new BodyTooLarge(maxBytes);
  return Buffer.concat(chunks);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as text, or undefined when they are not valid UTF-8. */
export function utf8Text(bytes: Buffer): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
