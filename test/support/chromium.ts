import { execFileSync } from 'node:child_process';

/**
 * Headless Chromium for the browser tests, from the npm registry: the
 * `@sparticuz/chromium` dev dependency ships the browser inside its package
 * and unpacks it on first use, so `npm ci && npm test` needs no system
 * browser. `CHROMIUM_PATH` points at another one instead.
 *
 * The package is an ES module, which jest's CommonJS runtime cannot load, so
 * a child process of the same Node asks it for the browser's path.
 */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const script =
    "const { default: chromium } = await import('@sparticuz/chromium'); process.stdout.write(await chromium.executablePath());";
  return execFileSync(process.execPath, ['--input-type=module', '--eval', script], { encoding: 'utf8' });
}

/** Headless, no sandbox (tests may run as root), and no calls home from a machine whose network is closed. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
