import type { SalesTransactionInput } from '@bop/contracts';
import type { FieldError, IngestEvent, StoredRecord, Work } from '@bop/shared';
import type { NormalizedTransaction } from './normalize';
import type { transactionRow } from './normalize';
import type { ReplicaLocation } from '@bop/shared';

/** The stored row of one transaction (snake_case columns), as the kit's upsert writes it. */
export type TransactionRow = ReturnType<typeof transactionRow>;

/**
 * One record of `POST /sales/transactions:batch` on its way through the pipeline. A step rejects a
 * record by pushing to `errors`, warns by pushing to `warnings`, may fill derived fields of
 * `normalized` (e.g. a line's `itemId`), and may `hold` it (stored for review, not applied).
 * Steps only look at records that are still valid (`isValid`).
 */
export interface Candidate {
  index: number;
  externalId: string | null;
  input?: SalesTransactionInput;
  location?: ReplicaLocation;
  normalized?: NormalizedTransaction;
  errors: FieldError[];
  warnings: FieldError[];
  /** set by the locked-day step: accepted with a warning, kept in the review queue, figures untouched */
  hold?: { reason: string };
  /** the same content as stored: answered `unchanged`, skipped by every step */
  unchanged?: boolean;
  /** the stored transaction of this externalId (locked for the batch), when there is one */
  stored?: { id: string; locationId: string; businessDay: string; status: string; contentHash: string };
  /** set by the unchanged check: the stored row (if any) was looked up and locked in this transaction */
  lookedUp?: boolean;
}

export type ValidCandidate = Candidate & { externalId: string; input: SalesTransactionInput; location: ReplicaLocation; normalized: NormalizedTransaction };

export const isValid = (c: Candidate): c is ValidCandidate =>
  c.errors.length === 0 && c.externalId !== null && c.input !== undefined && c.location !== undefined && c.normalized !== undefined;

/** What every step receives: the batch's unit of work (its transaction, instant and schema) and the source. */
export interface StepContext {
  w: Work;
  source: string;
}

/** A pre-store step: looks at the valid candidates, rejects/warns/holds/fills. */
export type PreStoreStep = (ctx: StepContext, candidates: ValidCandidate[]) => Promise<void>;

/** A post-store step: sees what was written (created/updated, with the row before), returns events to record. */
export type PostStoreStep = (ctx: StepContext, stored: StoredRecord<TransactionRow>[]) => Promise<Array<IngestEvent & { aggregateType: string; aggregateId: string }>>;
