import type { PreStoreStep, PostStoreStep } from '../pipeline';

/**
 * spec: ingestion rule 9 — transactions and summaries must not both be sent for the same location
 * and source. Rejects transactions of a (location, source) that already sent summaries.
 * (owned by the summaries work; stub)
 */
export const refuseWhereSummariesWereSent: PreStoreStep = async () => {};

/** Marks the (location, source, business day)s a write touched for the background day-summary rebuild. (stub) */
export const markDaysForRebuild: PostStoreStep = async () => [];
