import { startLocalHost } from '../../lib/local/host';

/**
 * The local host in a process of its own, so that the load generator does not
 * share an event loop with the server. It prints one JSON line with its URL
 * once it listens, and stops when its standard input closes (the bench is
 * done, or died).
 */
async function main(): Promise<void> {
  const host = await startLocalHost({ port: 0 });
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
