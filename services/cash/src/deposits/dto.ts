import Decimal from 'decimal.js';
import type { BankTransaction, CashDeposit, DepositMatchStatus } from '@bop/contracts';
import { fmtAmount } from '@bop/shared';
import type { BankTransactionEntity, DepositEntity } from './entities';

/** A deposit row with its bank transaction's amount (depositRows in read-store.ts). */
export type DepositRow = DepositEntity & { bankAmount: string | null };

/** The deposit as the API returns it (and `data.object` of `cash.deposit_recorded` / `cash.deposit_mismatch`). */
export function depositDto(r: DepositRow): CashDeposit {
  const bankAmount = r.bankTransactionId != null && r.bankAmount != null ? fmtAmount(r.bankAmount) : null;
  return {
    id: r.id,
    locationId: r.locationId,
    businessDays: r.businessDays,
    amount: fmtAmount(r.amount),
    depositedAt: new Date(r.depositedAt).toISOString(),
    reference: r.reference ?? null,
    bankAccount: r.bankAccount ?? null,
    note: r.note ?? null,
    matchStatus: r.matchStatus as DepositMatchStatus,
    bankTransactionId: r.bankTransactionId ?? null,
    bankAmount,
    difference: bankAmount === null ? null : fmtAmount(new Decimal(bankAmount).minus(r.amount)),
    matchedBy: (r.matchedBy as CashDeposit['matchedBy']) ?? null,
    matchedAt: r.matchedAt ? new Date(r.matchedAt).toISOString() : null,
    recordedBy: r.recordedBy,
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
  };
}

/** A bank transaction row with the deposit matched to it (bankRows in read-store.ts). */
export type BankRow = BankTransactionEntity & { depositId: string | null };

export function bankTransactionDto(r: BankRow): BankTransaction {
  return {
    id: r.id,
    source: r.source,
    externalId: r.externalId,
    accountId: r.accountId ?? null,
    bookedOn: r.bookedOn,
    amount: fmtAmount(r.amount),
    reference: r.reference ?? null,
    description: r.description ?? null,
    locationId: r.locationId ?? null,
    matched: r.depositId != null,
    depositId: r.depositId ?? null,
    version: r.version,
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
  };
}
