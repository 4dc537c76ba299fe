'use strict';
/**
 * Stands in for `node:stream/web` in the function bundles (lib/aws/bundling.ts
 * aliases it). @middy/core imports ReadableStream when it loads, only to
 * recognise a streamed response, which no function returns; loading Node's
 * web streams for that costs every cold start about 3 ms. Each name is
 * Node's own export, read from the module when first used
 * (process.getBuiltinModule, which the bundler leaves alone, so the alias does
 * not turn it back into this file).
 */
const NAMES = [
  'ReadableStream',
  'ReadableStreamTee',
  'ReadableStreamDefaultReader',
  'ReadableStreamBYOBReader',
  'ReadableStreamBYOBRequest',
  'ReadableByteStreamController',
  'ReadableStreamDefaultController',
  'TransformStream',
  'TransformStreamDefaultController',
  'WritableStream',
  'WritableStreamDefaultWriter',
  'WritableStreamDefaultController',
  'ByteLengthQueuingStrategy',
  'CountQueuingStrategy',
  'TextEncoderStream',
  'TextDecoderStream',
  'CompressionStream',
  'DecompressionStream',
];

for (const name of NAMES) {
  Object.defineProperty(module.exports, name, { enumerable: true, get: () => process.getBuiltinModule('node:stream/web')[name] });
}
