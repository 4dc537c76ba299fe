'use strict';
/**
 * Runs DynamoDB Local (Java) as its child, and stops it when the Node process
 * that started this guard goes away, however that ends: a SIGKILL or a crash
 * included. Node cannot ask the kernel to signal a child when its parent dies,
 * but a pipe can tell: the parent holds the other end of this guard's stdin,
 * and the kernel closes it when the parent dies. Plain JavaScript, so that it
 * starts in a bare `node` with no TypeScript loader.
 *
 * Usage: node dynamodb-local-guard.cjs '{"command":"java","args":[...],"cwd":"..."}'
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS, run by a bare node
const { spawn } = require('node:child_process');

const { command, args, cwd } = JSON.parse(process.argv[2] || '{}');
const java = spawn(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });

const stop = () => {
  if (java.exitCode === null && java.signalCode === null) java.kill('SIGTERM');
};
process.stdin.on('end', stop).on('close', stop).on('error', stop).resume();
process.on('SIGTERM', stop).on('SIGINT', stop).on('SIGHUP', stop);
java.on('error', (error) => {
  console.error(`${error.message} (is Java 17 installed?)`);
  process.exit(127);
});
java.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGTERM' ? 0 : 1)));
