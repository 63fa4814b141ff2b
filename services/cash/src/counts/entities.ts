import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { StoredThreshold } from './thresholds';

/** A denomination as stored: its face value, how many, and their amount. */
export interface StoredDenomination {
  value: string;
  quantity: number;
  amount: string;
}

/** A drawer, skim or safe count with what was expected when it was recorded (fixed from then on). */
export const CashCountEntity = defineEntity({
  name: 'CashCountEntity',
  tableName: 'counts',
  properties: {
    id: p.string().primary(),
    locationId: p.string(),
    businessDay: p.string().columnType('date'),
    type: p.string(),
    drawerId: p.string().nullable(),
    countedAt: p.datetime(),
    amount: p.decimal('string'),
    denominations: p.json<StoredDenomination[]>(),
    openingFloat: p.decimal('string').nullable(),
    expected: p.decimal('string').nullable(),
    overShort: p.decimal('string').nullable(),
    threshold: p.json<{ amount: string | null; percent: string | null }>().nullable(),
    exceeded: p.boolean(),
    explanation: p.string().nullable(),
    note: p.string().nullable(),
    countedBy: p.json<{ type: string; id: string | null }>(),
    createdAt: p.datetime(),
  },
});
export type CashCountEntity = InferEntity<typeof CashCountEntity>;

/** The over/short thresholds (thresholds.ts): the one row (id 1), replaced as a whole. */
export const OverShortThresholdsEntity = defineEntity({
  name: 'OverShortThresholdsEntity',
  tableName: 'over_short_thresholds',
  properties: {
    id: p.integer().primary(),
    thresholds: p.json<StoredThreshold[]>(),
    version: p.integer(),
    updatedAt: p.datetime().nullable(),
  },
});
export type OverShortThresholdsEntity = InferEntity<typeof OverShortThresholdsEntity>;

/** MikroORM entities of the counts area. */
export const countsEntities = [CashCountEntity, OverShortThresholdsEntity] as const;
