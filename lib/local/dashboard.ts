import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { DASHBOARD_BUILD_COMMAND, DASHBOARD_CONTENT_SECURITY_POLICY, DASHBOARD_DIST } from '../../dashboard/site';
import { problem } from '../../shared/http/problem';
import { requestPath, sendProblem } from './http-edge';

/**
 * Serves the built operator dashboard (dashboard/dist) at /dashboard/ on the
 * local host, as CloudFront serves it from S3 in AWS: same origin as the API,
 * so the dashboard calls /api/... without CORS.
 */

export const DASHBOARD_PATH = '/dashboard';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/** Sent with every page the local host serves to a browser (the dashboard and /docs). */
export const SECURITY_HEADERS = {
  'Content-Security-Policy': DASHBOARD_CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/** GET and HEAD under /dashboard; any other method falls through to the API's unknown-route 404. */
export const servesDashboard = (request: IncomingMessage): boolean => {
  const pathname = requestPath(request);
  const underDashboard = pathname === DASHBOARD_PATH || pathname.startsWith(`${DASHBOARD_PATH}/`);
  return underDashboard && (request.method === 'GET' || request.method === 'HEAD');
};

export async function serveDashboard(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const pathname = requestPath(request);
  // Relative asset URLs resolve against the directory, so the bare path moves to the slashed one.
  if (pathname === DASHBOARD_PATH) {
    response.writeHead(308, { Location: `${DASHBOARD_PATH}/` });
    return void response.end();
  }
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice(DASHBOARD_PATH.length + 1)) || 'index.html';
  } catch {
    return sendProblem(response, problem(400, 'bad-request', 'The path is not valid percent-encoding', pathname));
  }
  const file = path.resolve(DASHBOARD_DIST, relative);
  if (!file.startsWith(`${DASHBOARD_DIST}${path.sep}`)) return sendProblem(response, problem(404, 'not-found', 'No such file', pathname));
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) {
    const built = await stat(path.join(DASHBOARD_DIST, 'index.html')).catch(() => undefined);
    return built
      ? sendProblem(response, problem(404, 'not-found', 'No such file', pathname))
      : sendProblem(
          response,
          problem(503, 'dashboard-not-built', `The dashboard is not built: run \`${DASHBOARD_BUILD_COMMAND}\``, pathname),
        );
  }
  const isAsset = relative.startsWith('assets/');
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': info.size,
    // Vite names assets by content hash, so they never change; index.html must always be fresh.
    'Cache-Control': isAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (request.method === 'HEAD') return void response.end();
  createReadStream(file)
    .on('error', () => response.destroy())
    .pipe(response);
}
