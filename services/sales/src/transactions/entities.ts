import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { StoredLine, StoredTender } from './normalize';

export const SalesTransaction = defineEntity({
  name: 'SalesTransaction',
  tableName: 'transactions',
  properties: {
    id: p.string().primary(),
    source: p.string(),
    externalId: p.string(),
    locationId: p.string(),
    occurredAt: p.datetime(),
    businessDay: p.date(),
    type: p.string(),
    status: p.string(),
    channel: p.string().nullable(),
    registerId: p.string().nullable(),
    employeeExternalId: p.string().nullable(),
    subtotal: p.decimal(),
    tax: p.decimal(),
    total: p.decimal(),
    currency: p.string(),
    refundOf: p.string().nullable(),
    lines: p.json<StoredLine[]>(),
    tenders: p.json<StoredTender[]>(),
    contentHash: p.string(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type SalesTransaction = InferEntity<typeof SalesTransaction>;
