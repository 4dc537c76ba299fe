import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The layout's lint rules (eslint.config.mjs) hold: a file that imports a
 * folder leading back to its own is refused, so is a face that imports the
 * other face, so is a file that loads one leading back to it (imports of
 * types only aside), and so is a hand-written file over 400 lines. The probes are
 * linted as if they were files of the project, without being written, by
 * ESLint in a process of its own (its configuration is an ES module).
 */

const ROOT = path.resolve(__dirname, '../..');

const PROBES = {
  httpImportsOcto: ['shared/http/probe.ts', "import { octoExamples } from '../octo/examples';\nexport const probe = octoExamples;\n"],
  octoImportsHttp: ['shared/octo/probe.ts', "import { problem } from '../http/problem';\nexport const probe = problem;\n"],
  // combinations.ts as it was when it took its registration's transaction from usage-writes.ts, which loads it (through gates.ts).
  combinationsLoadsWrites: [
    'shared/usage/combinations.ts',
    "import { recordEntriesTransaction } from './usage-writes';\nexport const probe = recordEntriesTransaction;\n",
  ],
  combinationsNamesWritesTypes: [
    'shared/usage/combinations.ts',
    "import type { EntryToWrite } from './usage-writes';\nimport { type LimitPositions } from './usage-writes';\nexport type Probe = [EntryToWrite, LimitPositions];\n",
  ],
  long: ['shared/core/probe.ts', Array.from({ length: 401 }, (_, i) => `export const line${i} = ${i};`).join('\n') + '\n'],
};

const LINT = `
const { ESLint } = require('eslint');
(async () => {
  const eslint = new ESLint();
  const probes = JSON.parse(process.argv[1]);
  const found = {};
  for (const [name, [filePath, text]] of Object.entries(probes)) {
    const [result] = await eslint.lintText(text, { filePath });
    found[name] = result.messages.map(({ ruleId, message }) => ({ ruleId, message }));
  }
  process.stdout.write(JSON.stringify(found));
})();`;

let found: Record<keyof typeof PROBES, { ruleId: string; message: string }[]>;

beforeAll(async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', LINT, JSON.stringify(PROBES)], { cwd: ROOT });
  found = JSON.parse(stdout);
});

describe('the layout lint', () => {
  it('refuses an import that leads back to its own folder, and a face importing the other', () => {
    expect(found.httpImportsOcto.map((message) => message.ruleId).sort()).toEqual(['layout/no-folder-cycle', 'no-restricted-imports']);
    expect(found.httpImportsOcto.find((message) => message.ruleId === 'layout/no-folder-cycle')?.message).toBe(
      'shared/http imports shared/octo, which leads back to shared/http (shared/octo → shared/http): folders import one way',
    );
  });

  it('lets a folder import one that does not lead back', () => {
    expect(found.octoImportsHttp).toEqual([]);
  });

  it('refuses a file that loads one leading back to it', () => {
    expect(found.combinationsLoadsWrites.map((message) => message.ruleId)).toEqual(['layout/no-file-cycle']);
    expect(found.combinationsLoadsWrites[0].message).toBe(
      'shared/usage/combinations.ts imports shared/usage/usage-writes.ts, which leads back to shared/usage/combinations.ts ' +
        '(shared/usage/usage-writes.ts → shared/usage/gates.ts → shared/usage/period-usage.ts → shared/usage/combinations.ts): ' +
        'files import one way; move what both need to the file whose idea it is',
    );
  });

  it('lets a file import types from one leading back to it: they load nothing', () => {
    expect(found.combinationsNamesWritesTypes).toEqual([]);
  });

  it('refuses a hand-written file over 400 lines', () => {
    expect(found.long.map((message) => message.ruleId)).toEqual(['max-lines']);
  });
});
