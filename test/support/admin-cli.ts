import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

/** Runs the real admin CLI in an environment: exit code, stdout and stderr. */
export async function adminIn(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(TSX, ['bin/admin.ts', ...args], { cwd: ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Runs the real admin CLI against the test run's DynamoDB Local. */
export async function admin(...args: string[]): Promise<{ code: number; out: string }> {
  const { code, stdout, stderr } = await adminIn({ ...process.env }, ...args);
  return { code, out: stdout + stderr };
}

/**
 * The environment of a shell that ran `PORT=... DYNAMODB_LOCAL_PORT=... npm start`: those settings, and neither
 * the DYNAMODB_ENDPOINT nor the metrics switch that the test run sets for itself.
 */
export function asBesideNpmStart(settings: { PORT: number | string; DYNAMODB_LOCAL_PORT: number | string }): NodeJS.ProcessEnv {
  const { DYNAMODB_ENDPOINT: _endpoint, POWERTOOLS_METRICS_DISABLED: _metrics, ...shell } = process.env;
  return { ...shell, PORT: String(settings.PORT), DYNAMODB_LOCAL_PORT: String(settings.DYNAMODB_LOCAL_PORT) };
}
