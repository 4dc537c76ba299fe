/*
 * Work that falls due, on the sparse GSI3: an item carries the entry only
 * while the work is pending, so the one-minute sweeps read what is due and
 * nothing else. Each kind is one partition ordered by due instant (ISO 8601 UTC).
 */
type DueKind = 'HOLD' | 'WEBHOOK' | 'FLUSH' | 'RETENTION' | 'TIMESLOT';

export const holdExpiry = (holdExpiresAt: string, operatorId: string, reference: string) => ({
  GSI3PK: 'DUE#HOLD',
  GSI3SK: `${holdExpiresAt}#${operatorId}#${reference}`,
});

export const webhookAttempt = (nextAttemptAt: string, deliveryId: string) => ({
  GSI3PK: 'DUE#WEBHOOK',
  GSI3SK: `${nextAttemptAt}#${deliveryId}`,
});

/** A timeslot's announcement waiting for its trailing flush (shared/changes): found by the sweep if the flush is lost. */
export const announcementFlush = (flushAt: string, operatorId: string, activityId: string, date: string, time: string) => ({
  GSI3PK: 'DUE#FLUSH',
  GSI3SK: `${flushAt}#${operatorId}#${activityId}#${date}#${time}`,
});

/**
 * A booking that holds personal data, by the end of its activity (UTC): its
 * data is due for anonymising a retention period after that instant, so the
 * sweep reads the entries up to now minus the period, whatever it is set to.
 */
export const retention = (endsAtUtc: string, operatorId: string, reference: string) => ({
  GSI3PK: 'DUE#RETENTION',
  GSI3SK: `${endsAtUtc}#${operatorId}#${reference}`,
});

/** A timeslot whose cancellation has not finished: the sweep finishes it once `dueAt` has passed. */
export const timeslotCancellation = (dueAt: string, operatorId: string, activityId: string, date: string, time: string) => ({
  GSI3PK: 'DUE#TIMESLOT',
  GSI3SK: `${dueAt}#${operatorId}#${activityId}#${date}#${time}`,
});

/** The whole partition of one kind: everything pending, due or not. */
export const pending = (kind: DueKind) => ({ GSI3PK: `DUE#${kind}` });

/** Inclusive upper bound of the entries of `kind` due at or before `nowIso`. */
export const dueBy = (kind: DueKind, nowIso: string) => ({ GSI3PK: `DUE#${kind}`, SKTo: `${nowIso}#~` });
