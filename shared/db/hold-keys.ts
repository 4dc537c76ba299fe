import { operatorPartition, type ItemKey } from './keys';

/*
 * The places a partner key holds at once (its bookings ON_HOLD): a counter
 * in all and one per timeslot, in a partition of the key's, each changed in
 * the transaction that takes or gives back the held places.
 */
const holdsPartition = (operatorId: string, keyId: string) => `${operatorPartition(operatorId)}#APIKEY#${keyId}#HOLDS`;

export const total = (operatorId: string, keyId: string): ItemKey => ({ PK: holdsPartition(operatorId, keyId), SK: 'TOTAL' });

export const timeslot = (operatorId: string, keyId: string, activityId: string, date: string, time: string): ItemKey => ({
  PK: holdsPartition(operatorId, keyId),
  SK: `SLOT#${activityId}#${date}#${time}`,
});
