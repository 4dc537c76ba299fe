import { BACKGROUND_AS_ON_AWS } from '../../lib/local/defaults';
import { startLocalHost } from '../../lib/local/host';
import { config, configure } from '../../shared/core/config';

/**
 * The local host in a process of its own, so that the load generator does not
 * share an event loop with the server. It prints one JSON line with its URL
 * once it listens, and stops when its standard input closes (the bench is
 * done, or died). With `--live` it works as `npm start` does: the table's
 * stream read four times a second, the announcement queue and the Scheduler
 * played, and partners' receivers on this machine allowed.
 */
async function main(): Promise<void> {
  const live = process.argv.includes('--live');
  if (live) configure({ ...config(), webhookTargets: 'loopback-http' });
  const host = await startLocalHost({ port: 0, ...(live ? BACKGROUND_AS_ON_AWS : {}) });
  process.stdout.write(`${JSON.stringify({ url: host.url })}\n`);
  const stop = () => host.close().finally(() => process.exit(0));
  process.stdin.on('end', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
