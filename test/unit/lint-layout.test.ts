import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The layout's lint rules (eslint.config.mjs) hold: a file that imports a
 * folder leading back to its own is refused, so is a face that imports the
 * other face, and so is a hand-written file over 400 lines. The probes are
 * linted as if they were files of the project, without being written.
 */

const ROOT = path.resolve(__dirname, '../..');

async function lint(file: string, source: string): Promise<{ ruleId: string; message: string }[]> {
  const run = promisify(execFile)(path.join(ROOT, 'node_modules/.bin/eslint'), ['--stdin', '--stdin-filename', file, '--format', 'json'], {
    cwd: ROOT,
  });
  run.child.stdin?.end(source);
  const { stdout } = await run.catch((failed: { stdout: string }) => failed);
  return JSON.parse(stdout)[0].messages;
}

describe('the layout lint', () => {
  it('refuses an import that leads back to its own folder, and a face importing the other', async () => {
    const messages = await lint(
      'shared/http/probe.ts',
      "import { octoExamples } from '../octo/examples';\nexport const probe = octoExamples;\n",
    );
    expect(messages.map((message) => message.ruleId).sort()).toEqual(['layout/no-folder-cycle', 'no-restricted-imports']);
    expect(messages.find((message) => message.ruleId === 'layout/no-folder-cycle')?.message).toBe(
      'shared/http imports shared/octo, which leads back to shared/http (shared/octo → shared/http): folders import one way',
    );
  });

  it('lets a folder import one that does not lead back', async () => {
    expect(await lint('shared/octo/probe.ts', "import { problem } from '../http/problem';\nexport const probe = problem;\n")).toEqual([]);
  });

  it('refuses a hand-written file over 400 lines', async () => {
    const source = Array.from({ length: 401 }, (_, i) => `export const line${i} = ${i};`).join('\n') + '\n';
    expect((await lint('shared/core/probe.ts', source)).map((message) => message.ruleId)).toEqual(['max-lines']);
  });
});
