/**
 * esbuild options for every function bundle. The stack passes them to
 * NodejsFunction; the benchmark bundles with the same options to measure
 * what is deployed.
 */
export const LAMBDA_NODE_TARGET = 'node22';

export const bundlingOptions = {
  minify: true,
  sourceMap: true,
  target: LAMBDA_NODE_TARGET,
  // Bundle the SDK rather than rely on the runtime's copy: the deployed code runs the versions that were tested.
  externalModules: [] as string[],
};
