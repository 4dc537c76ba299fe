import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { LOCAL_CREDENTIALS } from '../../lib/local/defaults';
import { PROJECT_ROOT } from '../../shared/api/routes';

export interface HostProcess {
  url: string;
  stop(): Promise<void>;
}

/**
 * The local host in a child process (scripts/bench/host.ts), configured by its
 * environment as a Lambda function is; `live` reads the stream and plays the
 * queue and the Scheduler as `npm start` does.
 */
export async function startHostProcess(tableName: string, dynamoEndpoint: string, options: { live?: boolean } = {}): Promise<HostProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'host.ts'), ...(options.live ? ['--live'] : [])], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: dynamoEndpoint,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`The host process exited with code ${code} before it listened`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line).url as string));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        process.off('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.stdin!.end();
      }),
  };
}
