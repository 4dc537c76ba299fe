import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';

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
 * The body's bytes (empty when there is none); rejects with BodyTooLarge as
 * soon as it passes `maxBytes`, leaving the rest unread and the request paused
 * for `finishReading`, which must come before the answer.
 */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      request.off('data', onData).pause();
      reject(new BodyTooLarge(maxBytes));
    };
    request.on('data', onData);
    // A client that goes away before the end rejects with ERR_STREAM_PREMATURE_CLOSE (see http-edge.ts, failSafely).
    finished(request).then(() => resolve(Buffer.concat(chunks)), reject);
  });
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

/**
 * How much of what a client sends the host reads and throws away once it has
 * refused the request: at most 64 MiB, for at most 10 seconds, and never more
 * than 2 seconds without a byte, so that a client cannot hold a connection by sending forever.
 */
export const UNREAD_LIMITS = { bytes: 64 * 1024 * 1024, totalMs: 10_000, idleMs: 2_000 };

/**
 * Reads `stream` to its end and throws the bytes away, within `limits`.
 * Resolves true at the end, false when a limit passed or the stream closed
 * first; the stream is left flowing either way.
 */
export function discardRest(stream: Readable, limits = UNREAD_LIMITS): Promise<boolean> {
  if (stream.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    let discarded = 0;
    let idle: NodeJS.Timeout | undefined;
    const total = setTimeout(() => stop(false), limits.totalMs);
    const restartIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => stop(false), limits.idleMs);
    };
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > limits.bytes) stop(false);
      else restartIdle();
    };
    const onEnd = () => stop(true);
    const onClose = () => stop(false);
    function stop(ended: boolean) {
      clearTimeout(total);
      clearTimeout(idle);
      stream.off('data', onData).off('end', onEnd).off('close', onClose);
      resolve(ended);
    }
    stream.on('data', onData).once('end', onEnd).once('close', onClose);
    restartIdle();
    stream.resume();
  });
}

/**
 * Reads the rest of a request's body, which no one will use, before its
 * answer is written. An answer written while the client is still sending is
 * lost when the connection closes: a socket closed with unread bytes is reset,
 * and the reset can erase the answer before the client reads it (RFC 9112,
 * 9.6). Past the limits the answer says `Connection: close`, and the
 * connection closes after it.
 */
export async function finishReading(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (!(await discardRest(request)) && !response.headersSent) response.setHeader('Connection', 'close');
}
