import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions } from '../../lib/aws/bundling';
import { entryPath, PROJECT_ROOT, routes } from '../../shared/api/routes';
import { bundle, execute, outDir, runBundle } from '../support/bundles';

/**
 * What a deployed bundle carries beside its code: Node's web streams loaded
 * only when first used, and source maps that point its stack traces at the
 * sources (bundles.test.ts proves what the bundles answer).
 */

describe("Node's web streams are loaded when first used, not with a bundle", () => {
  it("a bundle that imports them (through @middy/core) loads the stand-in, and the stand-in answers every name with Node's own class", async () => {
    const file = await bundle('confirm-booking-streams', routes.find((route) => route.id === 'confirm-booking')!.entry);
    const source = readFileSync(file, 'utf8');
    expect(source).not.toMatch(/require\("node:stream\/web"\)/);
    expect(source).toContain('TextDecoderStream');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the stand-in, as the bundles load it
    const standIn = require(path.join(PROJECT_ROOT, 'lib/aws/web-streams-on-demand.cjs'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- what it stands in for
    const webStreams = require('node:stream/web');
    expect(Object.keys(standIn)).toEqual(Object.keys(webStreams));
    for (const name of Object.keys(webStreams)) expect({ name, same: standIn[name] === webStreams[name] }).toEqual({ name, same: true });
  });
});

describe('stack traces of the deployed bundles point at the sources', () => {
  /** The line of `text` in a source file, 1-based, as a mapped stack names it. */
  const lineOf = (file: string, text: string) =>
    readFileSync(entryPath(file), 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(text)) + 1;

  it('a 5xx logged by a bundle names file.ts:line, mapped with the map beside it when (and only when) the error is logged', async () => {
    const file = await bundle('list-products-failing', 'functions/ota/list-products.ts');
    const event = {
      httpMethod: 'GET',
      resource: '/api/v2/ota/marketplace/products',
      path: '/api/v2/ota/marketplace/products',
      headers: {},
      requestContext: { requestId: 'bundle-5xx', authorizer: { operatorId: 'op-x', keyId: 'key_x', scopes: 'ota', timeZone: 'UTC' } },
    };
    // A table that does not exist: DynamoDB refuses the query, the function answers 500 and logs why.
    const { outcomes, lines } = await runBundle(file, [{ name: 'failing', event }], { TABLE_NAME: 'no-such-table' });
    expect(outcomes[0]).toMatchObject({ result: { statusCode: 500 } });
    const [line] = lines.filter((candidate) => candidate.level === 'ERROR');
    expect(line).toMatchObject({ message: 'Request', route: 'list-products', status: 500, error: { name: 'ResourceNotFoundException' } });
    // The query that failed, at its line in the sources (and the SDK's frames at theirs).
    const query = lineOf('shared/db/query-pages.ts', 'await documentClient().send(new DocumentQueryCommand');
    expect(line.error.stack).toContain(`shared/db/query-pages.ts:${query}:`);
    expect(line.error.stack).toMatch(/node_modules\/@aws-sdk\/[^:]+\.js:\d+:\d+/);
    // No frame of the service's own code is left in the minified bundle.
    expect(line.error.stack).not.toMatch(/list-products-failing\/index\.js:\d+/);
  });

  it("npm run map-stack maps a stack copied from elsewhere with the asset's map", async () => {
    const outfile = path.join(outDir, 'throwing', 'index.js');
    await build({
      stdin: {
        contents:
          "import { checkActivityId } from './shared/booking/partner-bookings';" +
          "try { checkActivityId('not-an-activity'); } catch (error) { process.stdout.write(String(error.stack)); }",
        resolveDir: entryPath('.'),
        loader: 'ts',
      },
      outfile,
      ...esbuildOptions(),
      logLevel: 'error',
    });
    const { stdout: raw } = await execute(process.execPath, [outfile], { env: { PATH: process.env.PATH ?? '', TABLE_NAME: 't' } });
    expect(raw).toMatch(/throwing\/index\.js:\d+:\d+/);
    const stackFile = `${outfile}.stack.txt`;
    writeFileSync(stackFile, raw);
    const { stdout: mapped } = await execute(
      process.execPath,
      ['--import', 'tsx', entryPath('scripts/map-stack.ts'), `${outfile}.map`, stackFile],
      {
        env: { PATH: process.env.PATH ?? '' },
      },
    );
    const throwing = lineOf('shared/booking/partner-bookings.ts', 'throw new InvalidRequestError(ACTIVITY_ID_RULE');
    expect(mapped).toContain(`shared/booking/partner-bookings.ts:${throwing}:`);
    expect(mapped).not.toMatch(/throwing\/index\.js:\d+:\d+/);
  });
});
