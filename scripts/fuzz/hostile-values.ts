/** The building blocks of `npm run fuzz`: what a fuzz case is, hostile values, and a seeded random source. */

export type Write = 'booking' | 'octo-booking' | 'usage' | 'usage-batch' | 'timeslot-cancellation';

export interface FuzzCase {
  kind: 'api' | 'bus' | 'kms' | 'edge';
  label: string;
  bytes: Buffer;
  /** What a 2xx of this request writes, for the audit. */
  write?: Write;
  /** The Idempotency-Key it sends, if any: a 2xx of it leaves an idempotency record. */
  idempotencyKey?: string;
  /** A HEAD request, whose answers have no body. */
  head?: boolean;
  /** Why no 2xx may answer it, when none may. */
  mustRefuse?: string;
  /** A request to an OCTo route, whose refusals are OCTo's error body (or the gateway's problem with OCTo's fields). */
  octo?: boolean;
}

export interface Operation {
  method: string;
  path: string;
  pathParameters: string[];
  query: { name: string; required: boolean }[];
  body?: Record<string, unknown>;
}

export interface FuzzContext {
  /** The Host every request names: the host's own address and port. */
  host: string;
  key: string;
  /** A key with usage:read only, for 403s. */
  narrowKey: string;
  valid: { path: Record<string, string>; query: Record<string, Record<string, string>> };
}

export const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__'];

export const HOSTILE_STRINGS = [
  '',
  ' ',
  '%zz',
  '%00',
  '%',
  '..',
  '../..',
  '%2e%2e%2f',
  '%2F',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0',
  '1e309',
  '9'.repeat(400),
  'a'.repeat(5000),
  '😀',
  'é',
  '\u202e',
  '%F0%9F%98%80',
  '%C3%28',
  '__proto__',
  'constructor',
  "' OR 1=1 --",
  '{"$ne":null}',
  '<script>',
  '2026-02-30',
  '9999-12-31',
  '0000-01-01',
  's_',
  `s_${'a'.repeat(65)}`,
  'S_KAYAK01',
  'q_swim',
  '#',
  'OP#demo',
];

export const HOSTILE_JSON_VALUES: unknown[] = [
  null,
  true,
  0,
  -0,
  -1,
  1.5,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  ' ',
  'a'.repeat(70_000),
  '😀',
  [],
  {},
  [null],
  '2026-02-30',
  '+1',
  'x@',
  1e-7,
];

/** JSON numbers that JSON.parse reads as another number (written into bodies as text: JSON.stringify cannot write them). */
export const INEXACT_NUMBERS = [
  '0.1000000000000000001',
  '1000000000000.000001',
  '9007199254740993',
  '2.0000000000000001',
  '1e400',
  '1e-400',
];

/** A seeded random source, so a run can be repeated (FUZZ_SEED). */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] };
}
