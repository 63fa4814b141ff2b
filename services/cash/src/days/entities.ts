import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { DayFigures } from '@bop/contracts';

type ActorRef = { type: string; id: string | null };

/** A location's business day in cash: opened by its first record, closed with its figures locked, reopened with a reason. */
export const BusinessDayEntity = defineEntity({
  name: 'BusinessDayEntity',
  tableName: 'business_days',
  properties: {
    locationId: p.string().primary(),
    businessDay: p.string().columnType('date').primary(),
    status: p.string(),
    figures: p.json<DayFigures>().nullable(),
    closedAt: p.datetime().nullable(),
    closedBy: p.json<ActorRef>().nullable(),
    closeNote: p.string().nullable(),
    reopenedAt: p.datetime().nullable(),
    reopenedBy: p.json<ActorRef>().nullable(),
    reopenReason: p.string().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type BusinessDayEntity = InferEntity<typeof BusinessDayEntity>;

/** MikroORM entities of the days area. */
export const daysEntities = [BusinessDayEntity] as const;
