import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

type Actor = { type: string; id: string | null };

/**
 * A pay period: its dates (inclusive, local dates in the company's time zone) and whether it is locked.
 * `open` or `ended` follows from the clock (its end date passed or not); only the lock is stored.
 */
export const PayPeriod = defineEntity({
  name: 'PayPeriod',
  tableName: 'pay_periods',
  properties: {
    id: p.string().primary(),
    startDate: p.string().columnType('date'),
    endDate: p.string().columnType('date'),
    lockedAt: p.datetime().nullable(),
    lockedBy: p.json<Actor>().nullable(),
    unlocks: p.json<Array<{ at: string; by: Actor; reason: string }>>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type PayPeriod = InferEntity<typeof PayPeriod>;
