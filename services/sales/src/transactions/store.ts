import { findPage, type ListPage, type PageRequest, locationFilter, ingestBatch, type BatchResult, type IngestTarget, type PreparedRecord, lockStoredRecords, type StoredKey, type Work } from '@bop/shared';
import { SalesTransaction } from './entities';
import { fillLineTotals, transactionRow } from './normalize';
import { checkTransaction } from './totals';
import { transactionEvents } from './recorded-events';
import { isValid, type Candidate, type ValidCandidate, type PostStoreStep, type PreStoreStep, type StepContext, type TransactionRow } from './pipeline';
import { refuseWhereSummariesWereSent } from '../summaries/source-modes-store';
import { markDaysForRebuild } from '../summaries/rebuild-store';
import { matchItems, recordUnmappedItems } from '../items/store';
import { lockItemMappings } from '../items/store';
import { checkRefundsAndVoids, holdLockedDays, storeHeldRecords } from '../review/transaction-holds-store';

/** The transactions table as the kit's batch upsert writes it (snake_case columns of the migration), in the unit's schema. */
export const transactionsTarget: IngestTarget = {
  table: 'transactions',
  idKind: 'salesTransaction',
  aggregateType: 'sales_transaction',
  columns: {
    location_id: 'text',
    occurred_at: 'timestamptz',
    business_day: 'date',
    type: 'text',
    status: 'text',
    channel: 'text',
    register_id: 'text',
    employee_external_id: 'text',
    subtotal: 'numeric',
    tax: 'numeric',
    total: 'numeric',
    currency: 'text',
    refund_of: 'text',
    lines: 'jsonb',
    tenders: 'jsonb',
  },
};

function recordTransactionEvents(...[ctx, stored]: Parameters<PostStoreStep>): ReturnType<PostStoreStep> {
  return Promise.resolve(transactionEvents(ctx.source, stored, 'ingested'));
}

/** Totals, tax, tenders with change, signs and currency digits of each record (spec: Sales transaction rule). */
function checkArithmetic(...[, candidates]: Parameters<PreStoreStep>): ReturnType<PreStoreStep> {
  for (const c of candidates) {
    const lineTotals: string[] = [];
    c.errors.push(...checkTransaction(c.input, lineTotals));
    fillLineTotals(c.normalized, lineTotals);
  }
  return Promise.resolve();
}

/** In this order, on what is still valid after the step before. */
export const preStoreSteps: PreStoreStep[] = [checkArithmetic, refuseWhereSummariesWereSent, checkRefundsAndVoids, matchItems, holdLockedDays];
/** After the upsert, in the same transaction, with what was written. */
export const postStoreSteps: PostStoreStep[] = [recordTransactionEvents, recordUnmappedItems, markDaysForRebuild];

/**
 * A re-send identical to the stored transaction (same content hash) is `unchanged` whatever else is
 * true: it skips every step (re-sends are the common case of a feed that sends "the last hour"
 * every minute). Its row is locked here, in externalId order like the kit's upsert, so it stays
 * unchanged until commit.
 */
async function settleUnchanged(w: Work, source: string, candidates: ValidCandidate[]): Promise<void> {
  if (candidates.length === 0) return;
  const byExternalId = await lockStoredRecords<StoredKey & { location_id: string; business_day: string; status: string }>(w, transactionsTarget, source, candidates.map((c) => c.externalId), [
    `"location_id"`,
    `to_char("business_day", 'YYYY-MM-DD') as "business_day"`,
    `"status"`,
  ]);
  for (const c of candidates) {
    c.lookedUp = true;
    const r = byExternalId.get(c.externalId);
    if (!r) continue;
    c.stored = { id: r.id, locationId: r.location_id, businessDay: r.business_day, status: r.status, contentHash: r.content_hash };
    if (r.content_hash === c.normalized.contentHash) c.unchanged = true;
  }
}

/**
 * The transaction pipeline in the unit's transaction: pre-store steps (rule 9, refunds/voids,
 * items, locked days), the kit's set-based upsert (held records diverted to the review queue),
 * post-store steps (unmapped items, day rebuilds), events — answering the Batch result.
 */
export async function storeTransactions(w: Work, opts: { source: string; candidates: Candidate[]; endpoint: string; batchEvent?: boolean }): Promise<BatchResult> {
  const { source, candidates } = opts;
  // before any row lock: `:map` takes this exclusively, so lock order is always mapping → rows
  await lockItemMappings(w, [source], 'shared');
  const step: StepContext = { w, source };
  await settleUnchanged(w, source, candidates.filter(isValid));
  for (const run of preStoreSteps) {
    const valid = candidates.filter((c): c is ValidCandidate => isValid(c) && !c.unchanged);
    if (valid.length > 0) await run(step, valid);
  }
  const records: PreparedRecord<TransactionRow>[] = candidates.map((c) => ({
    index: c.index,
    externalId: c.externalId,
    errors: c.errors,
    warnings: c.warnings.length > 0 ? c.warnings : undefined,
    ...(isValid(c)
      ? {
          row: transactionRow(c.normalized),
          hash: c.normalized.contentHash,
          divert: c.hold !== undefined,
          unchangedId: c.unchanged ? c.stored?.id : undefined,
          // looked up and locked by settleUnchanged: the kit does not look again
          stored: c.lookedUp ? (c.stored ? { id: c.stored.id, contentHash: c.stored.contentHash } : null) : undefined,
        }
      : {}),
  }));
  return ingestBatch(w, {
    target: transactionsTarget,
    source,
    records,
    area: 'sales',
    endpoint: opts.endpoint,
    batchEvent: opts.batchEvent,
    divert: (_em, held) => storeHeldRecords(w, source, held),
    afterStore: async (_em, stored) => {
      const events = [];
      for (const run of postStoreSteps) events.push(...(await run(step, stored)));
      return events;
    },
  });
}

/** `GET /sales/transactions`: a page of transactions by id, or, with `updatedSince`, in change order (commit-safe: findPage). */
export async function listTransactions(
  w: Work,
  f: { source?: string; inLocations?: ReturnType<typeof locationFilter>; businessDayFrom?: string; businessDayTo?: string },
  page: PageRequest & { updatedSince?: string },
): Promise<ListPage<SalesTransaction>> {
  const { source, inLocations, businessDayFrom, businessDayTo } = f;
  return findPage(w.em, SalesTransaction, [
    source && { source },
    inLocations && { locationId: inLocations },
    (businessDayFrom || businessDayTo) && { businessDay: { ...(businessDayFrom ? { $gte: businessDayFrom } : {}), ...(businessDayTo ? { $lte: businessDayTo } : {}) } },
  ], page);
}
