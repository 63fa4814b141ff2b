import { z } from '../zod';
import { BatchResult, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { BusinessDay, CashAmount, CashRef, SignedCashAmount, cashText } from './common';

/**
 * Deposits and the bank. A deposit (`POST /cash/deposits`) is cash taken to the bank for one or more
 * business days; the bank's own record of it arrives with `POST /cash/bank-transactions`. They are
 * matched, whichever arrives second:
 * 1. by reference: a bank transaction whose reference or description contains the deposit's reference
 *    (the bag or slip number), booked from the deposit's day to `DEPOSIT_MATCH_WINDOW_DAYS` after;
 * 2. else by amount: the one unmatched credit of exactly the deposit's amount in that window (two or
 *    more candidates: left unmatched for a person, never guessed).
 * A pair matched by reference whose amounts differ is `mismatched` (`cash.deposit_mismatch`); a pair
 * that agrees is `matched`. A deposit for a closed business day is refused (409 `period_locked`).
 */
export const DEPOSIT_MATCH_WINDOW_DAYS = 5;

export const DepositMatchStatus = z.enum(['unmatched', 'matched', 'mismatched']);
export type DepositMatchStatus = z.output<typeof DepositMatchStatus>;

export const CashDepositCreate = z
  .strictObject({
    locationId: CashRef.openapi({ example: 'loc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    /** the business days whose cash it carries (each once; default: the business day of depositedAt) */
    businessDays: z.array(BusinessDay).min(1).max(31).optional(),
    amount: CashAmount,
    depositedAt: Timestamp.optional(),
    /** the bag or deposit slip number the bank will show */
    reference: cashText(100).nullable().optional(),
    bankAccount: cashText(100).nullable().optional(),
    note: cashText(2000).nullable().optional(),
  })
  .openapi('CashDepositCreate');
export type CashDepositCreate = z.output<typeof CashDepositCreate>;

export const CashDeposit = z
  .object({
    id: z.string().openapi({ example: 'dps_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    locationId: z.string(),
    businessDays: z.array(z.string()),
    amount: z.string(),
    depositedAt: z.string(),
    reference: z.string().nullable(),
    bankAccount: z.string().nullable(),
    note: z.string().nullable(),
    matchStatus: DepositMatchStatus,
    bankTransactionId: z.string().nullable(),
    bankAmount: z.string().nullable(),
    /** bank amount − deposit amount (null while unmatched) */
    difference: z.string().nullable(),
    matchedBy: z.enum(['reference', 'amount']).nullable(),
    matchedAt: z.string().nullable(),
    recordedBy: z.object({ type: z.string(), id: z.string().nullable() }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('CashDeposit');
export type CashDeposit = z.output<typeof CashDeposit>;

export const CashDepositListQuery = ListQuery.extend({
  locationId: CashRef.optional(),
  matchStatus: DepositMatchStatus.optional(),
  from: BusinessDay.optional().openapi({ description: 'deposited on or after this day (UTC)' }),
  updatedSince: Timestamp.optional(),
});

export const BankTransactionInput = z
  .strictObject({
    externalId: z.string().trim().min(1).max(200),
    /** the account as the bank names it */
    accountId: cashText(100).nullable().optional(),
    bookedOn: BusinessDay.openapi({ description: 'the booking date' }),
    /** credits positive, debits negative */
    amount: SignedCashAmount,
    reference: cashText(300).nullable().optional(),
    description: cashText(1000).nullable().optional(),
    /** when the bank feed knows the location */
    locationId: CashRef.nullable().optional(),
  })
  .openapi('BankTransactionInput');
export type BankTransactionInput = z.output<typeof BankTransactionInput>;

/** Body of `POST /cash/bank-transactions`; each record is validated on its own. */
export const BankTransactionBatch = z
  .strictObject({
    source: z.string().trim().min(1).max(100).openapi({ description: 'a stable label per bank feed', example: 'bank-main-account' }),
    transactions: z.array(z.unknown()).min(1).max(100_000).openapi({ description: 'BankTransactionInput records; at most API_MAX_BATCH_SIZE (1,000 by default)' }),
  })
  .openapi('BankTransactionBatch');

export const BankTransaction = z
  .object({
    id: z.string().openapi({ example: 'btx_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    source: z.string(),
    externalId: z.string(),
    accountId: z.string().nullable(),
    bookedOn: z.string(),
    amount: z.string(),
    reference: z.string().nullable(),
    description: z.string().nullable(),
    locationId: z.string().nullable(),
    matched: z.boolean(),
    depositId: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('BankTransaction');
export type BankTransaction = z.output<typeof BankTransaction>;

export const BankTransactionListQuery = ListQuery.extend({
  from: BusinessDay.optional().openapi({ description: 'booked on or after this day' }),
  matched: z.enum(['true', 'false']).optional(),
  updatedSince: Timestamp.optional(),
});

export const cashDepositsOperations = {
  'GET /cash/deposits': { query: CashDepositListQuery, response: listEnvelope(CashDeposit) },
  'POST /cash/deposits': { body: CashDepositCreate, response: CashDeposit, status: 201 },
  'GET /cash/deposits/{id}': { params: IdParam, response: CashDeposit },
  'POST /cash/bank-transactions': { body: BankTransactionBatch, response: BatchResult, status: 202 },
  'GET /cash/bank-transactions': { query: BankTransactionListQuery, response: listEnvelope(BankTransaction) },
};
