import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { mapStack } from '../shared/core/observability';

/**
 * `npm run map-stack -- <bundle's index.js.map> [file with the stack]`: maps
 * a stack logged by a deployed function (frames in its minified index.js) to
 * the sources' file:line:column, with the map the asset deployed beside the
 * bundle (cdk.out/asset.<hash>/index.js.map, or the function's code in the
 * Lambda console). Functions map the stacks they log themselves; this is for
 * a stack copied from anywhere else. Reads the stack from standard input
 * when no file is given.
 */
const [mapFile, stackFile] = process.argv.slice(2);
if (!mapFile) {
  console.error('Usage: npm run map-stack -- <path to index.js.map> [file holding the stack] (else the stack on standard input)');
  process.exit(2);
}
const map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')));
const stack = readFileSync(stackFile ?? 0, 'utf8');
process.stdout.write(mapStack(stack, path.basename(mapFile, '.map'), map));
