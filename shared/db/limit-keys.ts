import { operatorPartition, type ItemKey } from './keys';

/*
 * Usage limits: the definitions and their count in one partition (written only when a limit is put or deleted);
 * each meter's limits copied into a guard per aggregate shard, checked by recording beside that shard's aggregates;
 * the gates counting a limit's periods (a REFUSE limit's in a partition of its own, a NONE limit's one per shard),
 * and the thresholds crossed in each period in a partition apart from the gates' writes.
 */
const limitsPartition = (operatorId: string) => `${operatorPartition(operatorId)}#USAGE#LIMITS`;

export const count = (operatorId: string): ItemKey => ({ PK: limitsPartition(operatorId), SK: 'COUNT' });

export const limit = (operatorId: string, limitId: string): ItemKey => ({ PK: limitsPartition(operatorId), SK: `LIMIT#${limitId}` });

export const limitPrefix = (operatorId: string) => ({ PK: limitsPartition(operatorId), SKPrefix: 'LIMIT#' });

export const guard = (operatorId: string, shard: number, meter: string): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#USAGE#GUARDS#${shard}`,
  SK: `METER#${meter}`,
});

/** A REFUSE limit's one gate per period (a NONE limit counts in its meter's guards). */
export const gate = (operatorId: string, gateKey: string, periodKey: string): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#USAGE#GATE#${gateKey}`,
  SK: `PERIOD#${periodKey}`,
});

export const alerts = (operatorId: string, gateKey: string, periodKey: string): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#USAGE#ALERTS#${gateKey}`,
  SK: `PERIOD#${periodKey}`,
});
