import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import * as usageKeys from '../../shared/db/usage-keys';
import { queryPages } from '../../shared/db/query-pages';
import type { UsageLevel } from '../../shared/db/usage-levels';
import { AGGREGATE_SHARDS, COMBINATION_ATTRIBUTE } from '../../shared/usage/model';

/**
 * Item sizes as DynamoDB counts them for capacity units: each attribute's
 * name in UTF-8 plus its value (a string's UTF-8 bytes, a number's about one
 * byte per two significant digits plus one, a map's 3 bytes plus its members
 * and one byte each). A write costs one unit per KB of the item (two in a
 * transaction); a read, one per 4 KB (half for an eventually consistent one).
 */
function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined)
    return Math.ceil(value.N.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length / 2) + 1;
  if (value.M !== undefined)
    return 3 + Object.entries(value.M).reduce((sum, [name, member]) => sum + Buffer.byteLength(name) + valueBytes(member) + 1, 0);
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  throw new Error('An attribute type the usage items do not use');
}

const attributeBytes = ([name, value]: [string, AttributeValue]) => Buffer.byteLength(name) + valueBytes(value);

export interface LevelSizes {
  level: UsageLevel;
  items: number;
  meanCombinations: number;
  maxCombinations: number;
  meanBytes: number;
  maxBytes: number;
  /** What each combination's two attributes add to an item, on average. */
  bytesPerCombination: number;
  /** An item's size without its combinations, on average. */
  baseBytes: number;
}

/** The sizes of the aggregate items a summary's runs read, per level, every shard. */
export async function aggregateSizes(
  operatorId: string,
  runs: { level: UsageLevel; first: string; last: string }[],
): Promise<LevelSizes[]> {
  const items = new Map<UsageLevel, Record<string, AttributeValue>[]>();
  for (const run of runs) {
    const found = items.get(run.level) ?? [];
    items.set(run.level, found);
    for (let shard = 0; shard < AGGREGATE_SHARDS; shard += 1) {
      await queryPages(usageKeys.aggregateRange(operatorId, shard, run.level, run.first, run.last), undefined, (item) => found.push(item));
    }
  }
  return [...items].map(([level, found]) => {
    const measured = found.map((item) => {
      const attributes = Object.entries(item);
      const combinationBytes = attributes
        .filter(([name]) => COMBINATION_ATTRIBUTE.test(name))
        .reduce((sum, a) => sum + attributeBytes(a), 0);
      return {
        bytes: attributes.reduce((sum, attribute) => sum + attributeBytes(attribute), 0),
        combinationBytes,
        combinations: attributes.filter(([name]) => name.startsWith('U') && COMBINATION_ATTRIBUTE.test(name)).length,
      };
    });
    const total = (pick: (one: (typeof measured)[number]) => number) => measured.reduce((sum, one) => sum + pick(one), 0);
    return {
      level,
      items: measured.length,
      meanCombinations: total((one) => one.combinations) / measured.length,
      maxCombinations: Math.max(...measured.map((one) => one.combinations)),
      meanBytes: total((one) => one.bytes) / measured.length,
      maxBytes: Math.max(...measured.map((one) => one.bytes)),
      bytesPerCombination:
        total((one) => one.combinationBytes) /
        Math.max(
          1,
          total((one) => one.combinations),
        ),
      baseBytes: total((one) => one.bytes - one.combinationBytes) / measured.length,
    };
  });
}
