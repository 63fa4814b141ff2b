import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Settlement } from '@bop/contracts';

/** A processor's or platform's payout, stored by the kit's batch upsert (store.ts) and matched against the expected tenders. */
export const SettlementEntity = defineEntity({
  name: 'SettlementEntity',
  tableName: 'settlements',
  properties: {
    id: p.string().primary(),
    source: p.string(),
    externalId: p.string(),
    contentHash: p.string(),
    version: p.integer(),
    locationId: p.string(),
    kind: p.string(),
    processor: p.string(),
    platform: p.string().nullable(),
    tenderTypes: p.json<string[]>(),
    gross: p.decimal('string'),
    fees: p.decimal('string'),
    net: p.decimal('string'),
    paidOn: p.string().columnType('date'),
    businessDays: p.json<string[]>(),
    reference: p.string().nullable(),
    expectedGross: p.decimal('string'),
    difference: p.decimal('string'),
    matchStatus: p.string(),
    matchedAt: p.datetime(),
    lateReview: p.json<NonNullable<Settlement['lateReview']>>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type SettlementEntity = InferEntity<typeof SettlementEntity>;

/** MikroORM entities of the settlements area. */
export const settlementsEntities = [SettlementEntity] as const;
