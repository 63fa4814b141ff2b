import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { assertLocationInReach, Conflict, Forbidden, ingestBatch, NotFound, findPage, findPlain, type ListPage, type locationFilter, type PageRequest, type Principal, type Work } from '@bop/shared';
import { SalesTransaction } from '../transactions/entities';
import type { StepContext, TransactionRow } from '../transactions/pipeline';
import { transactionEvents } from '../transactions/recorded-events';
import { postStoreSteps, transactionsTarget } from '../transactions/store';
import type { IngestedSummaryRow } from '../summaries/summary-rules';
import { SalesSummaryEntity } from '../summaries/entities';
import { claimSourceModes, ruleNine } from '../summaries/source-modes-store';
import { summariesTarget, summaryUpdatedEvents } from '../summaries/store';
import { SalesReviewItemEntity, type ReviewRecordKind } from './entities';
import { reviewItemDetailDto, reviewItemDto, type CurrentRecord } from './dto';

const RECORDED = 'sales.transactions.recorded';
const ACCEPT_ENDPOINT = 'POST /sales/review-items/{id}:accept';

/** A decision on a held record is a person's (spec: ingestion rule 7, "flagged for review"): keys and the platform may not make it. */
export function assertPerson(principal: Principal): void {
  if (principal.kind !== 'user') throw new Forbidden('Only a person accepts or rejects a held record; integration keys may not.');
}

/** The transaction or summary the item applies to, as stored now. */
async function currentOf(w: Work, item: SalesReviewItemEntity, fresh = false): Promise<CurrentRecord> {
  const where = { source: item.source, externalId: item.externalId };
  const options = fresh ? { disableIdentityMap: true } : {};
  if (item.recordKind === 'summary') return { kind: 'summary', value: await w.em.findOne(SalesSummaryEntity, { ...where, origin: 'ingested' }, options) };
  return { kind: 'transaction', value: await w.em.findOne(SalesTransaction, where, options) };
}

/** The item and the record as stored now, when both locations are within the caller's reach. */
export async function loadItem(w: Work, id: string, lock = false) {
  const reach = w.reach();
  const item = await w.em.findOne(SalesReviewItemEntity, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!item) throw new NotFound('review item', id);
  assertLocationInReach(reach, item.locationId);
  const current = await currentOf(w, item);
  if (current.value && current.value.locationId !== item.locationId) assertLocationInReach(reach, current.value.locationId);
  return { item, current };
}

/** The decision's events: the internal one (kept as it was) and its public twin (the project's own type, issue 41 item 3). */
type DecisionEvents = readonly [internal: 'sales.review_item.accepted' | 'sales.review_item.rejected', published: 'sales_review_item.accepted' | 'sales_review_item.rejected'];

async function decide(w: Work, id: string, apply: (item: SalesReviewItemEntity) => Promise<void>, types: DecisionEvents) {
  assertPerson(w.actor);
  const { item } = await loadItem(w, id, true);
  if (item.status !== 'pending') throw new Conflict(`Review item ${id} is already ${item.status}; only a pending item is decided.`);
  w.checkVersion(item.version);
  await apply(item);
  item.decidedAt = w.now;
  item.decidedBy = w.actor.userId ?? w.actor.id;
  item.updatedAt = w.now;
  item.version += 1;
  await w.em.flush();
  const object = reviewItemDto(item);
  for (const type of types) w.emit({ type, aggregateType: 'sales_review_item', aggregateId: item.id, locationId: item.locationId, object });
  return reviewItemDetailDto(item, await currentOf(w, item, true));
}

/**
 * A held transaction applied to sales.transactions as the batch would have (same upsert, same
 * post-store steps), under the transaction id the batch result gave; `sales.transactions.recorded`
 * says `review_accepted` so consumers know a closed day's figures changed by a person's decision.
 */
async function applyTransaction(w: Work, item: SalesReviewItemEntity): Promise<string> {
  const result = await ingestBatch<TransactionRow>(w, {
    target: transactionsTarget,
    source: item.source,
    // a new record gets the id its batch result named; an existing row keeps its id
    records: [{ index: 0, externalId: item.externalId, row: item.row as TransactionRow, hash: item.contentHash, id: item.recordId }],
    area: 'sales',
    endpoint: ACCEPT_ENDPOINT,
    batchEvent: false,
    afterStore: async (_em, stored) => {
      const step: StepContext = { w, source: item.source };
      const events = [];
      for (const run of postStoreSteps) events.push(...(await run(step, stored)));
      return [...events.filter((e) => e.type !== RECORDED), ...transactionEvents(item.source, stored, 'review_accepted')];
    },
  });
  const r = result.results[0];
  if (r.status === 'rejected' || !r.id) throw new Error(`accepting ${item.id}: the held row was refused: ${JSON.stringify(r.errors)}`);
  return r.id;
}

/**
 * A held summary applied to sales.summaries with the summaries batch's upsert (no batch event:
 * a person's decision), under the summary id the batch result gave, with `sales.summary.updated`.
 * The pair is locked as a summary batch locks it, and what the batch would refuse now is refused:
 * the pair sending transactions (rule 9), or a period overlapping a summary stored since (its sales
 * would count twice) — 409, the item stays pending.
 */
async function applySummary(w: Work, item: SalesReviewItemEntity): Promise<string> {
  const row = item.row as IngestedSummaryRow;
  const modes = await claimSourceModes(w, item.source, [row.location_id], 'summaries', true);
  if (modes.get(row.location_id) === 'transactions') {
    throw new Conflict(`Source ${item.source} sends transactions for location ${row.location_id}, so the service builds its summaries: ${ruleNine}. Reject this item.`);
  }
  const overlaps = await findPlain(
    w.em,
    SalesSummaryEntity,
    {
      source: item.source,
      locationId: row.location_id,
      origin: 'ingested',
      externalId: { $ne: item.externalId },
      periodStart: { $lt: new Date(row.period_end) },
      periodEnd: { $gt: new Date(row.period_start) },
    },
    { orderBy: { periodStart: 'asc' }, limit: 1 },
  );
  if (overlaps.length > 0) {
    const o = overlaps[0];
    throw new Conflict(
      `The held summary's period overlaps summary ${o.externalId} (${new Date(o.periodStart).toISOString()} to ${new Date(o.periodEnd).toISOString()}) of the same location and source; its sales would count twice. Reject this item, or correct that summary first.`,
    );
  }
  const result = await ingestBatch<IngestedSummaryRow>(w, {
    target: summariesTarget,
    source: item.source,
    // as for transactions: a new summary gets the id its batch result named; an existing one keeps its id
    records: [{ index: 0, externalId: item.externalId, row, hash: item.contentHash, id: item.recordId }],
    area: 'sales',
    endpoint: ACCEPT_ENDPOINT,
    batchEvent: false,
    eventsFor: summaryUpdatedEvents(item.source, w.now),
  });
  const r = result.results[0];
  if (r.status === 'rejected' || !r.id) throw new Error(`accepting ${item.id}: the held row was refused: ${JSON.stringify(r.errors)}`);
  return r.id;
}

/** Accepting applies the held record (locked figures change by a person's decision, spec: ingestion rule 7). */
export function acceptItem(w: Work, id: string, note: string | undefined) {
  return decide(
    w,
    id,
    async (item) => {
      item.recordId = item.recordKind === 'summary' ? await applySummary(w, item) : await applyTransaction(w, item);
      item.status = 'accepted';
      item.decisionNote = note ?? null;
    },
    ['sales.review_item.accepted', 'sales_review_item.accepted'],
  );
}

/** Rejecting leaves the stored record as it is (locked figures unchanged) and records why. */
export function rejectItem(w: Work, id: string, reason: string) {
  return decide(
    w,
    id,
    async (item) => {
      item.status = 'rejected';
      item.decisionNote = reason;
    },
    ['sales.review_item.rejected', 'sales_review_item.rejected'],
  );
}

/** `GET /sales/review-items`: a page of review items (keyset after `after`, ordered by id), `limit` rows at most. */
export async function listReviewItems(
  w: Work,
  f: { status: string; source?: string; recordKind?: ReviewRecordKind; inLocations?: ReturnType<typeof locationFilter> },
  page: PageRequest & { updatedSince?: string },
): Promise<ListPage<SalesReviewItemEntity>> {
  const { status, source, recordKind, inLocations } = f;
  const where: FilterQuery<SalesReviewItemEntity> = { status };
  if (source) where.source = source;
  if (recordKind) where.recordKind = recordKind;
  if (inLocations) where.locationId = inLocations;
  return findPage(w.em, SalesReviewItemEntity, [where], page);
}

/** A business day's state in `sales.closed_days`, from cash's business-day events. */
export async function saveClosedDay(
  w: Work,
  d: { locationId: string; businessDay: string; status: 'closed' | 'open'; closedAt: Date | null; reopenedAt: Date | null; updatedAt: Date },
): Promise<void> {
  // a replayed older event never overwrites a newer state
  // raw SQL (bench:sql sales.closed-day): 1520 µs against 10834 through the ORM (7.1×: a locked read, then an insert or update: two round trips for one)
  // the upsert keeps the stored closed/reopened times where the event has none (coalesce with the stored row) and only over an older state; the ORM's merge has no such expressions
  await w.em.execute(
    `insert into "${w.schema}"."closed_days" ("location_id", "business_day", "status", "closed_at", "reopened_at", "updated_at")
     values (?, ?::date, ?, ?, ?, ?)
     on conflict ("location_id", "business_day") do update set
       "status" = excluded."status",
       "closed_at" = coalesce(excluded."closed_at", "closed_days"."closed_at"),
       "reopened_at" = coalesce(excluded."reopened_at", "closed_days"."reopened_at"),
       "updated_at" = excluded."updated_at"
     where "closed_days"."updated_at" <= excluded."updated_at"`,
    [d.locationId, d.businessDay, d.status, d.closedAt, d.reopenedAt, d.updatedAt],
  );
}
