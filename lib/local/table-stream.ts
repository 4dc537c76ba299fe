import { createHash } from 'node:crypto';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { loadHandler } from '../../functions/load-handler';
import { streamConsumers, type FilterPattern, type StreamConsumer } from '../../shared/api/background';
import { config } from '../../shared/core/config';
import { log } from '../../shared/core/observability';
import { attributeClient } from '../../shared/db/client';
import { backgroundDeliveries } from './aws-stand-in';

/**
 * Plays the event source mappings of the table stream's consumers
 * (shared/api/background.ts: the webhook sender, the announcer) on one
 * machine: reads the table's stream on DynamoDB Local, from its oldest
 * record as a mapping does, and hands each record to every consumer whose
 * filters pass it (the very same patterns), to the very same handler in
 * process. As a mapping's lanes do, a consumer is handed the records of one
 * item in order, one after the other, and the records of different items in
 * as many lanes as the mapping works on at once (parallelizationFactor ×
 * itemsAtOnce), by a hash of their item. A record
 * the handler reports failed is tried again, up to the mapping's
 * retryAttempts, then kept as a dead letter; the item's later records wait for it.
 */
export interface LocalTableStreamOptions {
  /** How often the stream is read (Lambda reads a shard four times a second); without it, only when `idle` is called. */
  pollMs?: number;
  /**
   * Every item in a lane of its own, rather than hashed into the mapping's
   * lanes: for a test whose outcome must not hang on which of its random IDs
   * happen to share a lane (a record behind a held one waits for it).
   */
  lanePerItem?: boolean;
}

export interface StreamDeadLetter {
  consumer: string;
  sequenceNumber: string;
  error: string;
  tries: number;
}

export interface LocalTableStream {
  /**
   * Reads the stream to its end and resolves once every record read has been
   * handled or dead-lettered, with how many records were handed over
   * meanwhile: the handlers' own writes are records for the next call, so a
   * call that hands over none finds the stream settled.
   */
  idle(): Promise<number>;
  readonly deadLetters: readonly StreamDeadLetter[];
  stop(): Promise<void>;
}

/** Pause before a failed record is handed over again; Lambda retries a batch at once, locally it is short. */
const RETRY_DELAY_MS = 200;
/** Records per GetRecords: DynamoDB Streams' most. */
const RECORDS_PER_READ = 1000;

/**
 * Whether `value` matches an event-filtering pattern of the kinds the
 * mappings' filters use: objects of fields, each a list of allowed strings,
 * `{ exists }` or `{ prefix }`. Another kind fails loudly rather than pass or
 * drop records unlike Lambda.
 */
export function matchesPattern(pattern: FilterPattern, value: unknown): boolean {
  const fields = (value ?? {}) as Record<string, unknown>;
  return Object.entries(pattern).every(([field, rule]) => {
    if (!Array.isArray(rule)) return typeof fields[field] === 'object' && matchesPattern(rule as FilterPattern, fields[field]);
    return rule.some((allowed) => {
      if (typeof allowed === 'string') return fields[field] === allowed;
      const kind = typeof allowed === 'object' ? Object.keys(allowed).join() : '';
      if (kind === 'exists') return (fields[field] !== undefined) === (allowed as { exists: boolean }).exists;
      if (kind === 'prefix')
        return typeof fields[field] === 'string' && (fields[field] as string).startsWith((allowed as { prefix: string }).prefix);
      throw new Error(`The local table stream does not evaluate the filter rule ${JSON.stringify(allowed)}`);
    });
  });
}

/** Whether a consumer's mapping hands `record` over: any one of its filters passes it. */
export const passes = (consumer: Pick<StreamConsumer, 'filters'>, record: unknown) =>
  consumer.filters.some((filter) => matchesPattern(filter, record));

/** A record as Lambda hands it to a function: the creation time in Unix seconds, the stream's ARN beside it. */
function lambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const { dynamodb, ...rest } = record;
  const created = dynamodb?.ApproximateCreationDateTime;
  return {
    ...(rest as DynamoDBRecord),
    dynamodb: { ...(dynamodb as DynamoDBRecord['dynamodb']), ApproximateCreationDateTime: created && Math.floor(created.getTime() / 1000) },
    eventSourceARN: streamArn,
  };
}

interface Stream {
  /** The endpoint and table it was described for. */
  where: string;
  arn: string;
  shards: Map<string, Shard>;
  /** To be described again before the next read. */
  stale: boolean;
}

type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

interface Shard {
  parentId?: string;
  iterator?: string;
  lastSequence?: string;
  closed: boolean;
}

/** The lane of an item's records (`PK|SK`): one of the mapping's lanes, by a hash of the item, as Lambda's are by partition key. */
export function hashedLane(consumer: StreamConsumer, item: string): number {
  const lanes = consumer.parallelizationFactor * consumer.itemsAtOnce;
  return createHash('sha256').update(item).digest().readUInt32BE(0) % lanes;
}

/** A consumer's mapping: its handler, loaded on first use, its deliveries and, per item, the last record handed over. */
interface Mapping {
  consumer: StreamConsumer;
  handler?: StreamHandler;
  deliveries: ReturnType<typeof backgroundDeliveries<StreamDeadLetter>>;
  lanes: Map<string, Promise<void>>;
}

export function startLocalTableStream(options: LocalTableStreamOptions = {}): LocalTableStream {
  let client: { streams: DynamoDBStreamsClient; endpoint?: string } | undefined;
  let stream: Stream | undefined;
  let reading: Promise<void> | undefined;
  let failing = false;
  let handedOver = 0;
  const deadLetters: StreamDeadLetter[] = [];
  const mappings: Mapping[] = streamConsumers.map((consumer) => ({
    consumer,
    deliveries: backgroundDeliveries<StreamDeadLetter>({
      name: `table stream (${consumer.id})`,
      retryDelaysMs: Array<number>(consumer.retryAttempts).fill(RETRY_DELAY_MS),
      deadLetterMessage: `Dead letter: ${consumer.id} stream record`,
    }),
    lanes: new Map(),
  }));

  /** Created on first use; again when the configured endpoint moves. */
  function streams(): DynamoDBStreamsClient {
    const { region, dynamoEndpoint, localCredentials } = config();
    if (!client || client.endpoint !== dynamoEndpoint) {
      client?.streams.destroy();
      client = {
        streams: new DynamoDBStreamsClient({ region, endpoint: dynamoEndpoint, credentials: localCredentials }),
        endpoint: dynamoEndpoint,
      };
    }
    return client.streams;
  }

  /** Hands a record to a consumer once its lane's previous record is done with (handled or dead-lettered). */
  function handOver(mapping: Mapping, record: DynamoDBRecord): void {
    const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
    const item = `${record.dynamodb?.Keys?.PK?.S}|${record.dynamodb?.Keys?.SK?.S}`;
    const lane = options.lanePerItem ? item : String(hashedLane(mapping.consumer, item));
    handedOver += 1;
    const handled = (mapping.lanes.get(lane) ?? Promise.resolve()).then(() =>
      mapping.deliveries.run({
        logFields: { consumer: mapping.consumer.id, sequenceNumber },
        attempt: async () => {
          mapping.handler ??= loadHandler<StreamHandler>(mapping.consumer.entry);
          const { batchItemFailures } = await mapping.handler({ Records: [record] });
          if (batchItemFailures.length) throw new Error(`${mapping.consumer.id} reported the record failed`);
        },
        deadLetter: (error, tries) => {
          const letter = { consumer: mapping.consumer.id, sequenceNumber, error: String(error), tries };
          deadLetters.push(letter);
          return letter;
        },
      }),
    );
    mapping.lanes.set(lane, handled);
    void handled.finally(() => {
      if (mapping.lanes.get(lane) === handled) mapping.lanes.delete(lane);
    });
  }

  /** Until every lane is through: a lane's next record starts only when its previous one is done. */
  async function lanesIdle(): Promise<void> {
    for (;;) {
      const running = mappings.flatMap((mapping) => [...mapping.lanes.values()]);
      if (!running.length) break;
      await Promise.allSettled(running);
    }
    await Promise.all(mappings.map((mapping) => mapping.deliveries.idle()));
  }

  /**
   * The table's stream and its shards, described again only when it may have
   * changed: another table or endpoint configured, a shard closed (new ones
   * follow it), or a read failed (DynamoDB Local restarted in memory makes
   * the table, and its stream, anew).
   */
  async function currentStream(): Promise<Stream> {
    const where = `${config().dynamoEndpoint} ${config().tableName}`;
    if (stream && stream.where === where && !stream.stale) return stream;
    const { Table } = await attributeClient().send(new DescribeTableCommand({ TableName: config().tableName }));
    const arn = Table?.LatestStreamArn;
    if (!arn) throw new Error(`The table ${config().tableName} has no stream`);
    if (stream?.arn !== arn) stream = { where, arn, shards: new Map(), stale: false };
    const { StreamDescription } = await streams().send(new DescribeStreamCommand({ StreamArn: arn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      const id = shard.ShardId as string;
      if (!stream.shards.has(id)) stream.shards.set(id, { parentId: shard.ParentShardId, closed: false });
    }
    Object.assign(stream, { where, stale: false });
    return stream;
  }

  /** Reads one shard to its end: from its oldest record the first time, then on from the last record read. */
  async function readShard(arn: string, shardId: string, shard: Shard): Promise<void> {
    for (;;) {
      shard.iterator ??= (
        await streams().send(
          new GetShardIteratorCommand({
            StreamArn: arn,
            ShardId: shardId,
            ...(shard.lastSequence
              ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: shard.lastSequence }
              : { ShardIteratorType: 'TRIM_HORIZON' }),
          }),
        )
      ).ShardIterator;
      let page;
      try {
        page = await streams().send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: RECORDS_PER_READ }));
      } catch (error) {
        // An iterator left unused too long, or pointing at records trimmed meanwhile: read on from where it was.
        if (!(error instanceof ExpiredIteratorException || error instanceof TrimmedDataAccessException)) throw error;
        shard.iterator = undefined;
        if (error instanceof TrimmedDataAccessException) shard.lastSequence = undefined;
        continue;
      }
      for (const record of page.Records ?? []) {
        shard.lastSequence = record.dynamodb?.SequenceNumber;
        const handed = lambdaRecord(record, arn);
        for (const mapping of mappings) if (passes(mapping.consumer, handed)) handOver(mapping, handed);
      }
      shard.iterator = page.NextShardIterator;
      if (!shard.iterator) {
        // A closed shard has children to read on from, which only a new description names.
        shard.closed = true;
        markStale();
      }
      if (!page.Records?.length || shard.closed) return;
    }
  }

  /** Reads every open shard whose parent is read to its end, as a mapping keeps a key's records in order. */
  async function readAll(): Promise<void> {
    try {
      const { arn, shards } = await currentStream();
      for (const [id, shard] of shards) {
        const parent = shard.parentId ? shards.get(shard.parentId) : undefined;
        if (!shard.closed && (!parent || parent.closed)) await readShard(arn, id, shard);
      }
    } catch (error) {
      markStale();
      throw error;
    }
  }

  /** The stream is described again before the next read. */
  function markStale(): void {
    if (stream) stream.stale = true;
  }

  /** One read at a time; a read asked for while one runs is the next one, so it sees everything written before it was asked for. */
  function read(): Promise<void> {
    const next = (reading ?? Promise.resolve())
      .catch(() => undefined)
      .then(readAll)
      .finally(() => {
        if (reading === next) reading = undefined;
      });
    reading = next;
    return next;
  }

  /** A timed read that fails (DynamoDB Local restarting) is logged once and tried again on the next tick. */
  async function tick(): Promise<void> {
    try {
      await read();
      if (failing) log().info('Local table stream read again');
      failing = false;
    } catch (error) {
      if (!failing) log().warn('Local table stream not read; trying again', { error: String(error) });
      failing = true;
    }
  }

  const timer = options.pollMs ? setInterval(() => void tick(), options.pollMs) : undefined;
  timer?.unref();

  return {
    deadLetters,
    async idle() {
      const before = handedOver;
      await read();
      await lanesIdle();
      return handedOver - before;
    },
    async stop() {
      if (timer) clearInterval(timer);
      await reading?.catch(() => undefined);
      await lanesIdle();
      client?.streams.destroy();
    },
  };
}
