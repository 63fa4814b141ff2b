import Decimal from 'decimal.js';
import type { BankTransaction, CashDeposit, DepositMatchStatus } from '@bop/contracts';
import { fmtAmount } from '@bop/shared';

/** A deposit row joined with its bank transaction's amount (DEPOSIT_SELECT). */
export interface DepositRow {
  id: string;
  location_id: string;
  business_days: string[];
  amount: string;
  deposited_at: Date;
  reference: string | null;
  bank_account: string | null;
  note: string | null;
  match_status: string;
  bank_transaction_id: string | null;
  bank_amount: string | null;
  matched_by: string | null;
  matched_at: Date | null;
  recorded_by: { type: string; id: string | null };
  created_at: Date;
  updated_at: Date;
}

export const DEPOSIT_SELECT = `select d."id", d."location_id", d."business_days", d."amount", d."deposited_at", d."reference", d."bank_account", d."note",
  d."match_status", d."bank_transaction_id", b."amount" as "bank_amount", d."matched_by", d."matched_at", d."recorded_by", d."created_at", d."updated_at"
  from "cash"."deposits" d left join "cash"."bank_transactions" b on b."id" = d."bank_transaction_id"`;

/** The deposit as the API returns it (and `data.object` of `cash.deposit_recorded` / `cash.deposit_mismatch`). */
export function depositDto(r: DepositRow): CashDeposit {
  const bankAmount = r.bank_transaction_id !== null && r.bank_amount !== null ? fmtAmount(r.bank_amount) : null;
  return {
    id: r.id,
    locationId: r.location_id,
    businessDays: r.business_days,
    amount: fmtAmount(r.amount),
    depositedAt: new Date(r.deposited_at).toISOString(),
    reference: r.reference,
    bankAccount: r.bank_account,
    note: r.note,
    matchStatus: r.match_status as DepositMatchStatus,
    bankTransactionId: r.bank_transaction_id,
    bankAmount,
    difference: bankAmount === null ? null : fmtAmount(new Decimal(bankAmount).minus(r.amount)),
    matchedBy: (r.matched_by as CashDeposit['matchedBy']) ?? null,
    matchedAt: r.matched_at ? new Date(r.matched_at).toISOString() : null,
    recordedBy: r.recorded_by,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

/** A bank transaction row with the deposit matched to it (BANK_SELECT). */
export interface BankRow {
  id: string;
  source: string;
  external_id: string;
  account_id: string | null;
  booked_on: string;
  amount: string;
  reference: string | null;
  description: string | null;
  location_id: string | null;
  deposit_id: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export const BANK_SELECT = `select b."id", b."source", b."external_id", b."account_id", to_char(b."booked_on", 'YYYY-MM-DD') as "booked_on", b."amount",
  b."reference", b."description", b."location_id", d."id" as "deposit_id", b."version", b."created_at", b."updated_at"
  from "cash"."bank_transactions" b left join "cash"."deposits" d on d."bank_transaction_id" = b."id"`;

export function bankTransactionDto(r: BankRow): BankTransaction {
  return {
    id: r.id,
    source: r.source,
    externalId: r.external_id,
    accountId: r.account_id,
    bookedOn: r.booked_on,
    amount: fmtAmount(r.amount),
    reference: r.reference,
    description: r.description,
    locationId: r.location_id,
    matched: r.deposit_id !== null,
    depositId: r.deposit_id,
    version: r.version,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}
