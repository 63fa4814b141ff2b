import { LockMode } from '@mikro-orm/core';
import { actorOf, Conflict, Forbidden, ingestBatch, insertEvents, NotFound, type EntityManager, type Principal, type ReachSet } from '@bop/shared';
import { SalesTransaction } from '../entities';
import type { TransactionRow } from '../pipeline';
import { assertLocationInReach } from '../reach';
import { postStoreSteps, transactionEvents, transactionsTarget } from '../store';
import { SalesReviewItemEntity } from './entities';
import { reviewItemDetailDto, reviewItemDto } from './dto';

const RECORDED = 'sales.transactions.recorded';

export interface Decider {
  principal: Principal;
  reach: ReachSet;
  /** throws 409 version_mismatch when If-Match names another version */
  checkVersion(current: number): void;
}

/** A decision on a held record is a person's (spec: ingestion rule 7, "flagged for review"): keys and the platform may not make it. */
export function assertPerson(principal: Principal): void {
  if (principal.kind !== 'user') throw new Forbidden('Only a person accepts or rejects a held record; integration keys may not.');
}

/** The item and the transaction as stored now, when both locations are within reach. */
export async function loadItem(em: EntityManager, id: string, reach: ReachSet, lock = false) {
  const item = await em.findOne(SalesReviewItemEntity, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!item) throw new NotFound('review item', id);
  assertLocationInReach(reach, item.locationId);
  const current = await em.findOne(SalesTransaction, { source: item.source, externalId: item.externalId });
  if (current && current.locationId !== item.locationId) assertLocationInReach(reach, current.locationId);
  return { item, current };
}

async function decide(em: EntityManager, id: string, by: Decider, apply: (tem: EntityManager, item: SalesReviewItemEntity) => Promise<void>, type: string) {
  assertPerson(by.principal);
  return em.transactional(async (tem) => {
    const { item } = await loadItem(tem, id, by.reach, true);
    if (item.status !== 'pending') throw new Conflict(`Review item ${id} is already ${item.status}; only a pending item is decided.`);
    by.checkVersion(item.version);
    await apply(tem, item);
    const now = new Date();
    item.decidedAt = now;
    item.decidedBy = by.principal.userId ?? by.principal.id;
    item.updatedAt = now;
    item.version += 1;
    await tem.flush();
    await insertEvents(tem, 'sales', [{ type, aggregateType: 'sales_review_item', aggregateId: item.id, locationId: item.locationId, object: reviewItemDto(item) }], actorOf(by.principal), now);
    const current = await tem.findOne(SalesTransaction, { source: item.source, externalId: item.externalId }, { disableIdentityMap: true });
    return reviewItemDetailDto(item, current);
  });
}

/**
 * Accepting applies the held row to sales.transactions as the batch would have (same upsert, same
 * post-store steps), under the transaction id the batch result gave; `sales.transactions.recorded`
 * says `review_accepted` so consumers know a closed day's figures changed by a person's decision.
 */
export function acceptItem(em: EntityManager, id: string, by: Decider, note: string | undefined) {
  return decide(
    em,
    id,
    by,
    async (tem, item) => {
      const result = await ingestBatch<TransactionRow & { id: string }>(tem, {
        target: transactionsTarget,
        source: item.source,
        // the row's `id` is read as the new row's id (it follows the kit's own in the upsert payload), so a
        // new record gets the id its batch result named; an existing row keeps its id
        records: [{ index: 0, externalId: item.externalId, row: { ...item.row, id: item.transactionId }, hash: item.contentHash }],
        actor: by.principal,
        area: 'sales',
        endpoint: 'POST /sales/review-items/{id}:accept',
        batchEvent: false,
        afterStore: async (dem, stored) => {
          const rows = stored.map(({ row: { id: _id, ...row }, ...s }) => ({ ...s, row }));
          const step = { em: dem, source: item.source, now: new Date() };
          const events = [];
          for (const run of postStoreSteps) events.push(...(await run(step, rows)));
          return [...events.filter((e) => e.type !== RECORDED), ...transactionEvents(item.source, rows, 'review_accepted')];
        },
      });
      const r = result.results[0];
      if (r.status === 'rejected' || !r.id) throw new Error(`accepting ${item.id}: the held row was refused: ${JSON.stringify(r.errors)}`);
      item.transactionId = r.id;
      item.status = 'accepted';
      item.decisionNote = note ?? null;
    },
    'sales.review_item.accepted',
  );
}

/** Rejecting leaves the transaction as it is (locked figures unchanged) and records why. */
export function rejectItem(em: EntityManager, id: string, by: Decider, reason: string) {
  return decide(
    em,
    id,
    by,
    async (_tem, item) => {
      item.status = 'rejected';
      item.decisionNote = reason;
    },
    'sales.review_item.rejected',
  );
}
