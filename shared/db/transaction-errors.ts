import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/**
 * Reads why DynamoDB cancelled a transaction: which items' conditions
 * failed (by their position in TransactItems), and whether a retry could
 * succeed (a conflicting transaction or throttling held an item).
 */
export type CancellationReason = NonNullable<TransactionCanceledException['CancellationReasons']>[number];

export interface TransactionCancellation {
  conditionFailed(position: number): boolean;
  /** The item as it was, for a position written with ReturnValuesOnConditionCheckFailure ALL_OLD (wire format). */
  oldItem(position: number): CancellationReason['Item'];
  retryable: boolean;
}

/** The cancellation behind an error, or undefined when the error is anything else. */
export function transactionCancellation(error: unknown): TransactionCancellation | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const reasons = error.CancellationReasons ?? [];
  return {
    conditionFailed: (position) => reasons[position]?.Code === 'ConditionalCheckFailed',
    oldItem: (position) => reasons[position]?.Item,
    retryable: reasons.some((reason) => reason.Code === 'TransactionConflict' || reason.Code === 'ThrottlingError'),
  };
}

/** The raw (wire-format) number of an old item, which the document client does not convert inside errors. */
export const rawNumber = (item: CancellationReason['Item'], name: string): number => Number(item?.[name]?.N);
