import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { config } from '../../shared/core/config';
import { PROBLEM_CONTENT_TYPE, problem } from '../../shared/http/problem';
import { OPENAPI_PATH, openApiDocument } from '../../shared/http/openapi';
import { routeSchemas } from '../../functions/load-handler';

/**
 * The API reference on the local host, without authentication: the OpenAPI
 * document at /api/v2/openapi.json (as the stack publishes it) and a Redoc
 * page at /docs. Redoc's standalone bundle comes from node_modules, so the
 * page needs no network.
 */

export const DOCS_PATH = '/docs';
const REDOC_SCRIPT_PATH = `${DOCS_PATH}/redoc.standalone.js`;

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>OTA booking and meter usage API</title>
  </head>
  <body>
    <redoc spec-url="${OPENAPI_PATH}"></redoc>
    <script src="${REDOC_SCRIPT_PATH}"></script>
  </body>
</html>
`;

interface Asset {
  contentType: string;
  body: () => string | Buffer;
}

const once = <T>(make: () => T): (() => T) => {
  let value: T | undefined;
  return () => (value ??= make());
};

const assets: Record<string, Asset> = {
  [OPENAPI_PATH]: {
    contentType: 'application/json',
    body: once(() => JSON.stringify(openApiDocument({ problemBaseUrl: config().problemBaseUrl, schemasOf: routeSchemas }))),
  },
  [DOCS_PATH]: { contentType: 'text/html; charset=utf-8', body: () => page },
  [REDOC_SCRIPT_PATH]: {
    contentType: 'text/javascript; charset=utf-8',
    body: once(() => readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'))),
  },
};

/** GET and HEAD of the document, the page and its script; anything else falls through to the API. */
export const servesDocs = (request: IncomingMessage): boolean =>
  (request.method === 'GET' || request.method === 'HEAD') && Object.hasOwn(assets, (request.url ?? '/').split('?')[0]);

export function serveDocs(request: IncomingMessage, response: ServerResponse): void {
  const requestPath = (request.url ?? '/').split('?')[0];
  const asset = assets[requestPath];
  let body: string | Buffer;
  try {
    body = asset.body();
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', message: 'API reference unavailable', error: String((error as Error)?.stack ?? error) }));
    const failure = problem(500, 'internal', 'The API reference could not be built', requestPath);
    response.writeHead(500, { 'Content-Type': PROBLEM_CONTENT_TYPE });
    response.end(JSON.stringify(failure));
    return;
  }
  response.writeHead(200, {
    'Content-Type': asset.contentType,
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}
