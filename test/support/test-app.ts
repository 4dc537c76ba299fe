import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';

/** Bundling is skipped unless a test asks for it: `npm run synth` bundles every function with the real esbuild. */
const WITHOUT_BUNDLING = { 'aws:cdk:bundling-stacks': [] };

const outdirs: string[] = [];

// CDK's own default, a new cdk.out* directory in the system's temporary one for every App, is never removed:
// about 24 MB each (the file deployments' CLI layer, the dashboard's files), a few dozen a run.
afterAll(() => {
  for (const outdir of outdirs.splice(0)) rmSync(outdir, { recursive: true, force: true });
});

/** An App for an infrastructure test: it synthesizes into a directory of its own, removed when the test file ends. */
export function testApp(context: Record<string, unknown> = WITHOUT_BUNDLING): App {
  const outdir = mkdtempSync(path.join(tmpdir(), 'cdk.out-test-'));
  outdirs.push(outdir);
  return new App({ outdir, context });
}
