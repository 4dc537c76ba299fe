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
import { webhookSender } from '../../shared/api/background';
import { config } from '../../shared/core/config';
import { log } from '../../shared/core/observability';
import { attributeClient } from '../../shared/db/client';
import { backgroundDeliveries } from './aws-stand-in';

/**
 * Plays the webhook sender's event source mapping on one machine: reads the
 * table's stream on DynamoDB Local, from its oldest record as the mapping
 * does, keeps the records that the mapping's filter passes (the very same
 * pattern, shared/api/background.ts) and hands each to the very same sender
 * handler in process. A record the handler reports failed is tried again,
 * up to the mapping's retryAttempts, then kept as a dead letter.
 */
export interface LocalTableStreamOptions {
  /** How often the stream is read (Lambda reads a shard four times a second); without it, only when `idle` is called. */
  pollMs?: number;
}

export interface StreamDeadLetter {
  sequenceNumber: string;
  error: string;
  tries: number;
}

export interface LocalTableStream {
  /** Reads the stream to its end and resolves once every record read has been handled or dead-lettered. */
  idle(): Promise<void>;
  readonly deadLetters: readonly StreamDeadLetter[];
  stop(): Promise<void>;
}

/** Pause before a failed record is handed over again; Lambda retries a batch at once, locally it is short. */
const RETRY_DELAY_MS = 200;
/** Records per GetRecords: DynamoDB Streams' most. */
const RECORDS_PER_READ = 1000;

type Pattern = { readonly [key: string]: Pattern | readonly (string | { readonly exists: boolean })[] };

/**
 * Whether `value` matches an event-filtering pattern of the kinds the
 * mapping's filter uses: objects of fields, each a list of allowed strings
 * or `{ exists }`. Another kind fails loudly rather than pass or drop records unlike Lambda.
 */
export function matchesPattern(pattern: Pattern, value: unknown): boolean {
  const fields = (value ?? {}) as Record<string, unknown>;
  return Object.entries(pattern).every(([field, rule]) => {
    if (!Array.isArray(rule)) return typeof fields[field] === 'object' && matchesPattern(rule as Pattern, fields[field]);
    return rule.some((allowed) => {
      if (typeof allowed === 'string') return fields[field] === allowed;
      if (typeof allowed === 'object' && Object.keys(allowed).join() === 'exists') return (fields[field] !== undefined) === allowed.exists;
      throw new Error(`The local table stream does not evaluate the filter rule ${JSON.stringify(allowed)}`);
    });
  });
}

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

type SenderHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

interface Shard {
  parentId?: string;
  iterator?: string;
  lastSequence?: string;
  closed: boolean;
}

export function startLocalTableStream(options: LocalTableStreamOptions = {}): LocalTableStream {
  let handler: SenderHandler | undefined;
  let client: { streams: DynamoDBStreamsClient; endpoint?: string } | undefined;
  let stream: Stream | undefined;
  let reading: Promise<void> | undefined;
  let failing = false;
  const deliveries = backgroundDeliveries<StreamDeadLetter>({
    name: 'table stream',
    retryDelaysMs: Array<number>(webhookSender.retryAttempts).fill(RETRY_DELAY_MS),
    deadLetterMessage: 'Dead letter: webhook delivery stream record',
  });

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

  function handOver(record: DynamoDBRecord): void {
    const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
    deliveries.start({
      logFields: { sequenceNumber },
      attempt: async () => {
        handler ??= loadHandler<SenderHandler>(webhookSender.entry);
        const { batchItemFailures } = await handler({ Records: [record] });
        if (batchItemFailures.length) throw new Error('The webhook sender reported the record failed');
      },
      deadLetter: (error, tries) => ({ sequenceNumber, error: String(error), tries }),
    });
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
        if (matchesPattern(webhookSender.filter, handed)) handOver(handed);
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
    deadLetters: deliveries.deadLetters,
    async idle() {
      await read();
      await deliveries.idle();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await reading?.catch(() => undefined);
      await deliveries.idle();
      client?.streams.destroy();
    },
  };
}
