import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { config } from '../../shared/core/config';
import { problem } from '../../shared/http/problem';
import { OPENAPI_PATH, openApiDocument } from '../../shared/http/openapi';
import { octoDocument } from '../../shared/octo/openapi';
import { SECURITY_HEADERS } from './dashboard';
import { gatewayResponseProblem, requestPath, sendProblem } from './http-edge';
import { methodThrottle } from './rate-limit';
import type { Clock } from '../../shared/core/clock';
import { OPENAPI_THROTTLING } from '../../shared/api/gateway';
import { logError } from '../../shared/core/observability';

/**
 * The API reference on the local host, without authentication: the OpenAPI
 * document at /api/v2/openapi.json (as the stack publishes it) and a Redoc
 * page at /docs. Redoc's standalone bundle comes from node_modules, and the
 * page is served with the dashboard's security headers (its CSP allows
 * nothing from another origin), so it needs no network and loads nothing
 * from outside.
 */

export const DOCS_PATH = '/docs';
const REDOC_SCRIPT_PATH = `${DOCS_PATH}/redoc.standalone.js`;
const INIT_SCRIPT_PATH = `${DOCS_PATH}/init.js`;

/** Redoc's sidebar shows a logo from Redocly's CDN; an empty image takes its place. */
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')}`;

/**
 * Redoc's styles are made at run time (styled-components), so the page's CSP
 * is the dashboard's with one addition: style elements carrying this page's
 * nonce, which Redoc puts on the styles it makes. Browsers hide a `nonce`
 * attribute from scripts, so the nonce travels as a data attribute to
 * init.js (a file: the CSP allows no inline script). Search runs in a worker
 * made from a blob: URL, which the CSP forbids, so it is off.
 */
const page = (nonce: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>OTA booking and meter usage API</title>
  </head>
  <body>
    <div id="redoc" data-spec-url="${OPENAPI_PATH}" data-style-nonce="${nonce}"></div>
    <script src="${REDOC_SCRIPT_PATH}"></script>
    <script src="${INIT_SCRIPT_PATH}"></script>
  </body>
</html>
`;

const initScript = `const element = document.getElementById('redoc');
Redoc.init(element.dataset.specUrl, { nonce: element.dataset.styleNonce, disableSearch: true }, element);
`;

const withStyleNonce = (policy: string, nonce: string) =>
  policy.replace(/style-src ([^;]*)/, (_, sources: string) => `style-src ${sources} 'nonce-${nonce}'`);

interface Asset {
  contentType: string;
  body: (nonce: string) => string | Buffer;
}

const once = <T>(make: () => T): (() => T) => {
  let value: T | undefined;
  return () => (value ??= make());
};

const assets = new Map<string, Asset>([
  [
    OPENAPI_PATH,
    {
      contentType: 'application/json',
      body: once(() => JSON.stringify(openApiDocument({ octo: octoDocument }, { problemBaseUrl: config().problemBaseUrl }))),
    },
  ],
  [DOCS_PATH, { contentType: 'text/html; charset=utf-8', body: page }],
  [INIT_SCRIPT_PATH, { contentType: 'text/javascript; charset=utf-8', body: () => initScript }],
  [
    REDOC_SCRIPT_PATH,
    {
      contentType: 'text/javascript; charset=utf-8',
      body: once(() => readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8').replaceAll(REDOC_CDN_LOGO, EMPTY_IMAGE)),
    },
  ],
]);

/** GET and HEAD of the document, the page and its script; anything else falls through to the API. */
export const servesDocs = (request: IncomingMessage): boolean =>
  (request.method === 'GET' || request.method === 'HEAD') && assets.has(requestPath(request));

/**
 * Serves the API reference. The document has the throttle of its method on
 * the stage (OPENAPI_THROTTLING), one bucket for all its callers, answered
 * as API Gateway answers it.
 */
export function docsServer(clock: Clock) {
  const throttle = methodThrottle(OPENAPI_THROTTLING, clock);
  return (request: IncomingMessage, response: ServerResponse): void => {
    const path = requestPath(request);
    if (path === OPENAPI_PATH) {
      const decision = throttle();
      if (!decision.allowed) return sendProblem(response, gatewayResponseProblem('THROTTLED', path), decision.headers);
    }
    serveAsset(request, response, path);
  };
}

function serveAsset(request: IncomingMessage, response: ServerResponse, path: string): void {
  const asset = assets.get(path) as Asset;
  const nonce = randomBytes(16).toString('base64');
  let body: string | Buffer;
  try {
    body = asset.body(nonce);
  } catch (error) {
    logError('API reference unavailable', { error });
    return sendProblem(response, problem(500, 'internal', 'The API reference could not be built', path));
  }
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Security-Policy': withStyleNonce(SECURITY_HEADERS['Content-Security-Policy'], nonce),
    'Content-Type': asset.contentType,
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}
