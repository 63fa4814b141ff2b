import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

type Actor = { type: string; id: string | null };
export type PunchTypeName = 'clock_in' | 'clock_out' | 'break_start' | 'break_end';
export interface PunchCorrectionEntry {
  at: string;
  by: Actor;
  reason: string;
  before: { type: PunchTypeName; occurredAt: string };
  after: { type: PunchTypeName; occurredAt: string };
  via: 'correction' | 'request' | 'resend';
}

/** A punch from a timeclock (the kit's batch ingestion target: unique on source and externalId). */
export const Punch = defineEntity({
  name: 'Punch',
  tableName: 'punches',
  properties: {
    id: p.string().primary(),
    source: p.string(),
    externalId: p.string(),
    contentHash: p.string(),
    version: p.integer(),
    employeeId: p.string(),
    locationId: p.string(),
    type: p.string().$type<PunchTypeName>(),
    occurredAt: p.datetime(),
    deviceId: p.string().nullable(),
    position: p.string().nullable(),
    exceptions: p.json<Array<{ code: 'outside_locations' | 'position_not_held'; message: string }>>(),
    payPeriodId: p.string().nullable(),
    original: p.json<{ type: PunchTypeName; occurredAt: string }>().nullable(),
    corrections: p.json<PunchCorrectionEntry[]>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Punch = InferEntity<typeof Punch>;

/** A punch sent into a locked pay period: held here for review, counted in no timesheet until the period is unlocked. */
export const HeldPunch = defineEntity({
  name: 'HeldPunch',
  tableName: 'held_punches',
  properties: {
    id: p.string().primary(),
    source: p.string(),
    externalId: p.string(),
    contentHash: p.string(),
    row: p.json<PunchRow>(),
    payPeriodId: p.string(),
    reason: p.string(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type HeldPunch = InferEntity<typeof HeldPunch>;

/** A punch as the batch upsert writes it (snake_case columns of the migration). */
export interface PunchRow extends Record<string, unknown> {
  employee_id: string;
  location_id: string;
  type: PunchTypeName;
  occurred_at: string;
  device_id: string | null;
  position: string | null;
  exceptions: Array<{ code: 'outside_locations' | 'position_not_held'; message: string }>;
  pay_period_id: string | null;
}
