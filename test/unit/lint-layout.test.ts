import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The layout's lint rules (eslint.config.mjs) hold: a file that imports a
 * folder leading back to its own is refused, so is a face that imports the
 * other face, and so is a hand-written file over 400 lines. The probes are
 * linted as if they were files of the project, without being written, by
 * ESLint in a process of its own (its configuration is an ES module).
 */

const ROOT = path.resolve(__dirname, '../..');

const PROBES = {
  httpImportsOcto: ['shared/http/probe.ts', "import { octoExamples } from '../octo/examples';\nexport const probe = octoExamples;\n"],
  octoImportsHttp: ['shared/octo/probe.ts', "import { problem } from '../http/problem';\nexport const probe = problem;\n"],
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

  it('refuses a hand-written file over 400 lines', () => {
    expect(found.long.map((message) => message.ruleId)).toEqual(['max-lines']);
  });
});
