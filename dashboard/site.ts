import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * What the local host (lib/local-dashboard.ts) and the CloudFront site
 * (lib/dashboard-site.ts) both need to know about the built dashboard.
 */

const DASHBOARD_ROOT = __dirname;

/** `vite build` writes here (git-ignored); `npm start`, `npm test` and `npm run synth` build it first. */
export const DASHBOARD_DIST = path.join(DASHBOARD_ROOT, 'dist');

/** The command that builds it, for messages. */
export const DASHBOARD_BUILD_COMMAND = 'npm run build:dashboard';

/**
 * Scripts, styles and API calls come from the dashboard's own origin only, so
 * an injected script could neither run nor send the API key elsewhere.
 */
export const DASHBOARD_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SOURCES = ['index.html', 'vite.config.mts', 'tsconfig.json', 'src'];

function newestChange(entry: string): number {
  const info = statSync(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

/**
 * Builds the dashboard when dashboard/dist is missing or older than its
 * sources, so that `npx cdk synth` and `npx cdk deploy` never ship a stale
 * build. Vite runs locally: no network is needed.
 */
export function ensureDashboardBuilt(): void {
  const index = path.join(DASHBOARD_DIST, 'index.html');
  const sourcesChanged = Math.max(...SOURCES.map((source) => newestChange(path.join(DASHBOARD_ROOT, source))));
  if (existsSync(index) && statSync(index).mtimeMs >= sourcesChanged) return;
  try {
    execFileSync('npm', ['run', '--silent', 'build:dashboard'], { cwd: path.dirname(DASHBOARD_ROOT), stdio: 'pipe', encoding: 'utf8' });
  } catch (error) {
    const output = error as { stdout?: string; stderr?: string };
    throw new Error(
      `The operator dashboard could not be built (\`${DASHBOARD_BUILD_COMMAND}\`):\n${output.stdout ?? ''}${output.stderr ?? String(error)}`,
    );
  }
}
