import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isIPv6 } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { Duplex } from 'node:stream';
import { gatewayProblems, type GatewayResponseType } from '../../shared/api/gateway';
import { statusTitle } from '../../shared/api/problem-types';
import { PROBLEM_CONTENT_TYPE, problem, problemResponse, type Problem } from '../../shared/http/problem';
import { octoMembersOf } from '../../shared/octo/gateway-errors';
import { logError } from '../../shared/core/observability';
import { discardRest, finishReading } from './request-body';

/**
 * What the local host does at the edge of HTTP, before a route is chosen, so
 * that every answer is a problem+json that matches what happened: requests
 * Node refuses itself (broken HTTP, headers over 16 KB, `Expect` other than
 * 100-continue), a request without Host or naming another host, a request
 * target that is not a path, and any failure of a request's own handling.
 */

export interface RequestTarget {
  /** The path as sent (percent-encoded), which is also a problem's `instance`. */
  path: string;
  query: URLSearchParams;
}

/**
 * The path and query of a request target. Only the origin form (`/path?query`)
 * names a resource here; anything else (`*`, an absolute URL) is undefined.
 * The target is split, not resolved as a URL, so `//x:99999/` is a path (of no
 * route), not a host and port.
 */
export function requestTarget(url: string | undefined): RequestTarget | undefined {
  if (!url?.startsWith('/')) return undefined;
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  return { path, query: new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1)) };
}

/** The request's path as sent (a problem's `instance`): the path of its target when it has one, else `/`. */
export const requestPath = (request: IncomingMessage): string => requestTarget(request.url)?.path ?? '/';

/** A refusal the gateway answers by itself, for every route alike: the problem, with OCTo's `error` and `errorMessage` too. */
export const gatewayProblem = (status: number, kind: string, detail: string, instance: string): Problem =>
  problem(status, kind, detail, instance, octoMembersOf(status, detail));

/** The problem of one of the gateway responses the stack configures (shared/api/gateway.ts). */
export function gatewayResponseProblem(type: GatewayResponseType, instance: string): Problem {
  const { status, kind, detail } = gatewayProblems[type];
  return gatewayProblem(status, kind, detail, instance);
}

/** A gateway response as API Gateway answers it: its problem, with its own headers unless `headers` replace them. */
export const gatewayResponse = (
  type: GatewayResponseType,
  instance: string,
  headers = gatewayProblems[type].headers,
): APIGatewayProxyResult => problemResponse(gatewayResponseProblem(type, instance), headers);

export function sendProblem(response: ServerResponse, body: Problem, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    // Too late for a status: cut the connection so the client sees a failure, not a truncated success.
    response.destroy();
    return;
  }
  response.writeHead(body.status, { ...headers, 'Content-Type': PROBLEM_CONTENT_TYPE });
  response.end(JSON.stringify(body));
}

const CLOSED_EARLY = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET']);

/** The last resort of a request's handling: logs the failure and answers 500, and the host keeps serving. */
export function failSafely(request: IncomingMessage, response: ServerResponse, error: unknown, where: string): void {
  // The connection closed before the request was read (the client left, or its bytes were answered as broken HTTP): nothing failed here.
  if (CLOSED_EARLY.has((error as NodeJS.ErrnoException)?.code ?? '')) return void response.destroy();
  try {
    logError(`${where} failure`, { path: requestPath(request), error });
  } catch {
    // Logging must never be what takes the host down.
  }
  sendProblem(response, gatewayResponseProblem('DEFAULT_5XX', requestPath(request)));
}

/**
 * Answers on a connection whose HTTP cannot be read any further, and closes
 * it the way RFC 9112 (9.6) asks, so that the answer is not reset away: the
 * answer and a half-close first, then what the client still sends is read and
 * thrown away until it closes its side or the limits pass (request-body.ts).
 */
function answerAndClose(socket: Duplex, body: Problem): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${body.status} ${statusTitle(body.status)}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
  void discardRest(socket).then(() => {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  });
}

/**
 * Installs the edge on a server created with `requireHostHeader: false` (the
 * Host check is `missingHost` below, so that its answer is a problem too).
 */
export function guardServerEdge(server: Server): void {
  // Requests still being answered, per connection: a parse error after a
  // complete request (a stray byte behind a valid body) must not be answered
  // before that request's own answer, or a client is told 400 about a write that happened.
  const inFlight = new WeakMap<Duplex, Map<IncomingMessage, ServerResponse>>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const pending = inFlight.get(request.socket) ?? new Map<IncomingMessage, ServerResponse>();
    inFlight.set(request.socket, pending);
    pending.set(request, response);
    response.once('close', () => pending.delete(request));
  });

  // Connections already answered as broken: the parser reports every later chunk as another error, and each is ignored.
  const refused = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (refused.has(socket)) return;
    refused.add(socket);
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const body = tooLarge
      ? gatewayProblem(431, 'headers-too-large', 'The request line and headers are too large', '/')
      : gatewayProblem(400, 'bad-request', 'The request is not valid HTTP', '/');
    const answer = () => {
      if (socket.writable) answerAndClose(socket, body);
      else socket.destroy();
    };
    const pending = [...(inFlight.get(socket) ?? [])].filter(([, response]) => !response.writableFinished);
    // A request whose own body is broken (a bad chunk) is the one at fault: its handler is still
    // waiting for the body, so it has written nothing, and the 400 is its answer (closing the
    // connection ends that wait).
    const complete = pending.filter(([request]) => request.complete);
    if (!complete.length) return answer();
    let left = complete.length;
    for (const [, response] of complete) response.once('close', () => --left === 0 && answer());
  });

  // Node answers an Expect it does not know with a bare 417; this one says why.
  // A client may wait for the 100 Continue that will not come, or send its body anyway: that is read first (request-body.ts).
  server.on('checkExpectation', async (request: IncomingMessage, response: ServerResponse) => {
    const expectation = String(request.headers.expect);
    await finishReading(request, response);
    sendProblem(
      response,
      gatewayProblem(
        417,
        'expectation-failed',
        `Only 'Expect: 100-continue' is supported, not '${expectation.slice(0, 100)}'`,
        requestPath(request),
      ),
      {
        Connection: 'close',
      },
    );
  });
}

/** HTTP/1.1 requires Host (RFC 9112, 3.2); its absence is answered as Node would, but as a problem. */
export const missingHost = (request: IncomingMessage): Problem | undefined =>
  request.httpVersion === '1.1' && request.headers.host === undefined
    ? gatewayProblem(400, 'bad-request', 'An HTTP/1.1 request needs a Host header', requestPath(request))
    : undefined;

/** The names of this machine that every request may use, whatever HOST says. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
/** A HOST that listens on every interface: then each interface's address is a name of the host too. */
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::']);

const hostName = (address: string) => (isIPv6(address) ? `[${address}]` : address).toLowerCase();

/**
 * Which Host headers the host answers: a loopback name or its HOST, with the
 * port it listens on (a name alone only on port 80, where clients leave the
 * port out). A page a developer opens can rebind its own name to 127.0.0.1
 * and then post to the host as a same-origin page; its requests still carry
 * the page's name in Host, and that name is none of these.
 */
export function acceptedHosts(bindAddress: string, port: number): (host: string) => boolean {
  const withPort = (names: string[]) => names.flatMap((name) => (port === 80 ? [name, `${name}:80`] : [`${name}:${port}`]));
  const fixed = new Set(withPort([...LOOPBACK_NAMES, hostName(bindAddress)]));
  const interfaces = () =>
    withPort(
      Object.values(networkInterfaces())
        .flat()
        .flatMap((entry) => (entry ? [hostName(entry.address)] : [])),
    );
  return (host) => {
    const name = host.toLowerCase();
    return fixed.has(name) || (WILDCARD_ADDRESSES.has(bindAddress) && interfaces().includes(name));
  };
}

/** A request whose Host names another host is refused, as RFC 9110 (15.5.20) says: 421, this server does not answer for that name. */
export function misdirectedHost(request: IncomingMessage, accepts: (host: string) => boolean): Problem | undefined {
  const host = request.headers.host;
  if (host === undefined || accepts(host)) return undefined;
  return gatewayProblem(
    421,
    'misdirected-request',
    `The local host answers only requests addressed to it as localhost, 127.0.0.1 or [::1] (or its HOST) with its port, not as '${host.slice(0, 100)}'`,
    requestPath(request),
  );
}
