import type { BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';
import { PROJECT_ROOT } from '../../shared/api/routes';

/**
 * esbuild options for every function bundle. The stack passes them to
 * NodejsFunction; the benchmark bundles with the same options to measure
 * what is deployed.
 */
const LAMBDA_NODE_TARGET = 'node24';

export const bundlingOptions: BundlingOptions = {
  minify: true,
  // The map is deployed beside the bundle but not loaded with it (no --enable-source-maps: that costs every cold start
  // about a third more): an error's stack is mapped with it only when the error is logged (shared/core/observability.ts).
  sourceMap: true,
  // Line mappings without the sources' text: a map a fraction of the size.
  sourcesContent: false,
  target: LAMBDA_NODE_TARGET,
  // Bundle the SDK rather than rely on the runtime's copy: the deployed code runs the versions that were tested.
  // The exception is the credential sources Lambda never reaches: the SDK tries environment credentials first,
  // and Lambda always sets them, so these modules are only ever loaded lazily, after that fails. Leaving them
  // out saves about 90 KB per bundle; were one ever needed, it would load from the runtime's SDK.
  externalModules: [
    '@aws-sdk/credential-provider-http',
    '@aws-sdk/credential-provider-ini',
    '@aws-sdk/credential-provider-login',
    '@aws-sdk/credential-provider-process',
    '@aws-sdk/credential-provider-sso',
    '@aws-sdk/credential-provider-web-identity',
    '@aws-sdk/nested-clients',
    '@aws-sdk/nested-clients/*',
    '@aws-sdk/token-providers',
    '@smithy/credential-provider-imds',
  ],
  // Prefer the packages' ES module builds: esbuild can drop what is never imported from them, which the
  // CommonJS builds of the AWS SDK prevent (about 30% of each bundle).
  mainFields: ['module', 'main'],
  // Node's web streams are loaded when first used rather than with the bundle (see the stand-in): paths are from the project root.
  esbuildArgs: { '--alias': ['node:stream/web=./lib/aws/web-streams-on-demand.cjs'] },
};

/**
 * The esbuild options NodejsFunction derives from `bundlingOptions`, for
 * bundling outside CDK exactly as the stack does (the bench, the bundle test).
 * An option this does not translate fails rather than build a different bundle.
 */
export function esbuildOptions(options: BundlingOptions = bundlingOptions): BuildOptions {
  const { minify, sourceMap, sourcesContent, target, externalModules, mainFields, esbuildArgs = {}, ...others } = options;
  const { '--alias': aliases = [], ...otherArgs } = esbuildArgs as { '--alias'?: string[] };
  const unknown = [...Object.keys(others), ...Object.keys(otherArgs)];
  if (unknown.length) throw new Error(`lib/aws/bundling.ts sets option(s) esbuildOptions does not translate: ${unknown.join(', ')}`);
  return {
    // Where NodejsFunction runs esbuild, so that alias paths mean the same.
    absWorkingDir: PROJECT_ROOT,
    alias: Object.fromEntries(aliases.map((alias) => alias.split('=') as [string, string])),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    minify,
    sourcemap: sourceMap,
    sourcesContent,
    target,
    external: externalModules,
    mainFields,
  };
}
