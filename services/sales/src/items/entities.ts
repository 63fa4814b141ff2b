import { ArrayType, defineEntity, p, type InferEntity, type Platform, type TransformContext } from '@mikro-orm/core';
import { sqlList } from '@bop/shared';

/**
 * A text[] whose every element is bound quoted (sqlList): the ORM's array type leaves a value with
 * blanks or `NULL` unquoted, which Postgres trims or reads as null.
 */
export class QuotedTextArray extends ArrayType<string> {
  override convertToDatabaseValue(value: string[] | null, platform: Platform, context?: TransformContext): string | null {
    return Array.isArray(value) ? sqlList(value) : super.convertToDatabaseValue(value, platform, context);
  }
}

/** Replica of inventory's items, fed by item.created/item.updated (consumers.ts); what sales lines match against. */
export const SalesItem = defineEntity({
  name: 'SalesItem',
  tableName: 'items',
  properties: {
    id: p.string().primary(),
    sku: p.string().nullable(),
    barcodes: p.array(),
    externalId: p.string().nullable(),
    name: p.string(),
    status: p.string(),
    updatedAt: p.datetime(),
  },
});
export type SalesItem = InferEntity<typeof SalesItem>;

/**
 * One POS item (source + its strongest line reference) whose lines matched no item (spec: ingestion
 * rule 3). A `mapped` entry is also the mapping later lines of that POS item match first.
 */
export const SalesUnmappedItem = defineEntity({
  name: 'SalesUnmappedItem',
  tableName: 'unmapped_items',
  properties: {
    id: p.string().primary(),
    source: p.string(),
    refField: p.string(),
    refValue: p.string(),
    itemExternalId: p.string().nullable(),
    itemSku: p.string().nullable(),
    itemBarcode: p.string().nullable(),
    sampleNames: p.array().type(QuotedTextArray),
    transactionCount: p.integer(),
    firstSeenAt: p.datetime(),
    lastSeenAt: p.datetime(),
    locationIds: p.array().type(QuotedTextArray),
    status: p.string(),
    itemId: p.string().nullable(),
    mappedAt: p.datetime().nullable(),
    mappedBy: p.json<{ type: 'user' | 'integration' | 'system' | 'employee'; id: string | null }>().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type SalesUnmappedItem = InferEntity<typeof SalesUnmappedItem>;

export const itemsEntities = [SalesItem, SalesUnmappedItem] as const;
