import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export interface ChannelFigures {
  channel: string;
  netSales: string;
  transactions: number;
}

/**
 * A sales summary: sent by a source (`ingested`, POST /sales-summaries) or built by the service from
 * a source's transactions, one per (location, source, business day, currency) (`built`, spec:
 * ingestion rule 9). Both kinds are unique on (source, externalId); a built one's key is internal.
 */
export const SalesSummaryEntity = defineEntity({
  name: 'SalesSummary',
  tableName: 'summaries',
  properties: {
    id: p.string().primary(),
    source: p.string(),
    externalId: p.string(),
    origin: p.string(),
    locationId: p.string(),
    businessDay: p.date().nullable(),
    periodStart: p.datetime(),
    periodEnd: p.datetime(),
    currency: p.string().nullable(),
    grossSales: p.decimal(),
    discounts: p.decimal(),
    netSales: p.decimal(),
    tax: p.decimal(),
    transactions: p.integer(),
    guests: p.integer().nullable(),
    byChannel: p.json<ChannelFigures[]>(),
    contentHash: p.string(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type SalesSummaryEntity = InferEntity<typeof SalesSummaryEntity>;

/** Which of transactions or summaries a source sends for a location (spec: ingestion rule 9), claimed by its first batch. */
export const SalesSourceMode = defineEntity({
  name: 'SalesSourceMode',
  tableName: 'source_modes',
  properties: {
    locationId: p.string().primary(),
    source: p.string().primary(),
    mode: p.string().$type<'transactions' | 'summaries'>(),
    claimedAt: p.datetime(),
  },
});
export type SalesSourceMode = InferEntity<typeof SalesSourceMode>;

/** A mark of a (location, source, business day) whose built summary is to be rebuilt (append-only; the worker drains it). */
export const SalesSummaryRebuild = defineEntity({
  name: 'SalesSummaryRebuild',
  tableName: 'summary_rebuilds',
  properties: {
    id: p.bigint().primary().autoincrement(),
    locationId: p.string(),
    source: p.string(),
    businessDay: p.date(),
    requestedAt: p.datetime(),
  },
});
export type SalesSummaryRebuild = InferEntity<typeof SalesSummaryRebuild>;

/** What one stored transaction adds to its day's built summary (channel '' when it has none); the batch that stores it keeps it. */
export const SalesSummaryContribution = defineEntity({
  name: 'SalesSummaryContribution',
  tableName: 'summary_contributions',
  properties: {
    transactionId: p.string().primary(),
    locationId: p.string(),
    source: p.string(),
    businessDay: p.string().columnType('date'),
    currency: p.string(),
    channel: p.string(),
    gross: p.decimal(),
    discounts: p.decimal(),
    tax: p.decimal(),
    sales: p.integer(),
    completed: p.integer(),
  },
});
export type SalesSummaryContribution = InferEntity<typeof SalesSummaryContribution>;

/**
 * The running sums of a (location, source, business day, currency, channel) over its transactions'
 * contributions (`members` of them, voided ones included): what a day's rebuild reads.
 */
export const SalesSummaryGroup = defineEntity({
  name: 'SalesSummaryGroup',
  tableName: 'summary_groups',
  properties: {
    locationId: p.string().primary(),
    source: p.string().primary(),
    businessDay: p.string().columnType('date').primary(),
    currency: p.string().primary(),
    channel: p.string().primary(),
    gross: p.decimal(),
    discounts: p.decimal(),
    tax: p.decimal(),
    sales: p.integer(),
    completed: p.integer(),
    members: p.integer(),
  },
});
export type SalesSummaryGroup = InferEntity<typeof SalesSummaryGroup>;

/** A difference a batch made to a group's sums, appended (never updated) until the day's rebuild folds it in. */
export const SalesSummaryGroupDelta = defineEntity({
  name: 'SalesSummaryGroupDelta',
  tableName: 'summary_group_deltas',
  properties: {
    id: p.bigint().primary().autoincrement(),
    locationId: p.string(),
    source: p.string(),
    businessDay: p.string().columnType('date'),
    currency: p.string(),
    channel: p.string(),
    gross: p.decimal(),
    discounts: p.decimal(),
    tax: p.decimal(),
    sales: p.integer(),
    completed: p.integer(),
    members: p.integer(),
  },
});
export type SalesSummaryGroupDelta = InferEntity<typeof SalesSummaryGroupDelta>;

export const summariesEntities = [SalesSummaryEntity, SalesSourceMode, SalesSummaryRebuild, SalesSummaryContribution, SalesSummaryGroup, SalesSummaryGroupDelta] as const;
