import Decimal from 'decimal.js';
import { LockMode } from '@mikro-orm/core';
import { BankTransactionInput, type CashDeposit, type CashDepositCreate } from '@bop/contracts';
import {
  Conflict,
  NotFound,
  ValidationError,
  actorOf,
  assertLocationInReach,
  businessDayOf,
  fmtAmount,
  ingestBatch,
  newId,
  parseBatchRecords,
  resolveLocations,
  writableLocations,
  type ApiError,
  type BatchResult,
  type FieldError,
  type IngestTarget,
  type PreparedRecord,
  type StoredRecord,
  type Work,
} from '@bop/shared';
import { assertDaysOpen, lockLocationCash } from '../days/lock-store';
import { depositFieldErrors, pairStatus } from './matching';
import { depositDto } from './dto';
import { DepositEntity } from './entities';
import { matchCredits, matchDeposit } from './match-store';
import { depositRows } from './read-store';

/** The deposits as GET answers them, by id. */
export async function depositsById(w: Work, ids: string[]): Promise<Map<string, CashDeposit>> {
  if (ids.length === 0) return new Map();
  const rows = await depositRows(w, [{ id: { $in: ids } }]);
  return new Map(rows.map((r) => [r.id, depositDto(r)]));
}

export async function getDeposit(w: Work, id: string): Promise<CashDeposit> {
  const dto = (await depositsById(w, [id])).get(id);
  if (!dto) throw new NotFound('deposit', id);
  return dto;
}

const depositEvent = (type: 'cash.deposit_recorded' | 'cash.deposit_mismatch', dto: CashDeposit) => ({
  type,
  aggregateType: 'deposit',
  aggregateId: dto.id,
  locationId: dto.locationId,
  object: dto as unknown as Record<string, unknown>,
});

/** The 409 when a concurrent deposit took the same bank transaction twice over (deposits_bank_transaction_uq): the route's `conflict`. */
export function depositConflictFor(_constraint: string | undefined): ApiError {
  return new Conflict('Another deposit was matched to the same bank transaction at the same time; send the request again.');
}

/**
 * `POST /cash/deposits`: the location in reach and active, the business days begun and open (409
 * `period_locked` for a closed one), then stored and matched against the bank's credits at once
 * (match-store.ts) — `cash.deposit_recorded`, and `cash.deposit_mismatch` when it pairs with a credit of
 * another amount.
 */
export async function recordDeposit(w: Work, body: CashDepositCreate): Promise<CashDeposit> {
  const { em } = w;
  assertLocationInReach(w.reach(), body.locationId);
  const located = await writableLocations(w, [{ id: body.locationId, path: 'locationId', takes: 'deposits' }]);
  if (located.errors.length > 0) throw new ValidationError(located.errors);
  const location = located.byId.get(body.locationId)!;
  const dayAt = (at: Date) => businessDayOf(at.toISOString(), location.timezone, location.businessDayCutoff);

  const depositedAt = body.depositedAt ? new Date(body.depositedAt) : w.now;
  const errors = depositFieldErrors({ depositedAt, businessDays: body.businessDays }, w.now, dayAt(w.now));
  if (errors.length > 0) throw new ValidationError(errors);
  const businessDays = [...(body.businessDays ?? [dayAt(depositedAt)])].sort();
  // after the counts of the location in flight (a safe count subtracts the deposits before it)
  await lockLocationCash(w, body.locationId);
  await assertDaysOpen(w, businessDays.map((businessDay) => ({ locationId: body.locationId, businessDay })), 'businessDays');

  const id = newId('deposit');
  const amount = fmtAmount(body.amount);
  const reference = body.reference ?? null;
  await em.insert(DepositEntity, {
    id,
    locationId: body.locationId,
    businessDays,
    amount,
    depositedAt,
    reference,
    bankAccount: body.bankAccount ?? null,
    note: body.note ?? null,
    matchStatus: 'unmatched',
    recordedBy: actorOf(w.actor),
    version: 1,
    createdAt: w.now,
    updatedAt: w.now,
  });
  const pairing = await matchDeposit(w, { id, amount, depositedOn: depositedAt.toISOString().slice(0, 10), reference });
  const dto = await getDeposit(w, id);
  w.emit(depositEvent('cash.deposit_recorded', dto));
  if (pairing?.status === 'mismatched') w.emit(depositEvent('cash.deposit_mismatch', dto));
  return dto;
}

/** bank_transactions as the kit's batch upsert writes it (in the unit's schema). */
export const bankTransactionsTarget: IngestTarget = {
  table: 'bank_transactions',
  idKind: 'bankTransaction',
  aggregateType: 'bank_transaction',
  columns: { account_id: 'text', booked_on: 'date', amount: 'numeric', reference: 'text', description: 'text', location_id: 'text' },
};

interface BankTransactionRow extends Record<string, unknown> {
  account_id: string | null;
  booked_on: string;
  amount: string;
  reference: string | null;
  description: string | null;
  location_id: string | null;
}

/** Per-record validation: the schema, and a location the feed names known to cash (archived: stored with a warning). */
async function prepareBankRecords(w: Work, records: unknown[]): Promise<PreparedRecord<BankTransactionRow>[]> {
  const parsed = parseBatchRecords(BankTransactionInput, records);
  const named = [...new Set(parsed.flatMap((p) => (p.data?.locationId ? [p.data.locationId] : [])))];
  // read through from organization for a location cash does not hold yet
  const located = await resolveLocations(w, named.map((locationId) => ({ locationId })));
  const status = new Map([...located.byId.values()].map((l) => [l.id, l.status]));
  return parsed.map((p) => {
    const errors: FieldError[] = [...p.errors];
    const warnings: FieldError[] = [];
    const t = p.data;
    if (!t) return { index: p.index, externalId: p.externalId, errors };
    if (t.locationId) {
      const s = status.get(t.locationId);
      if (s === undefined) errors.push({ path: 'locationId', message: `No location ${t.locationId}.` });
      else if (s === 'archived') warnings.push({ path: 'locationId', message: `Location ${t.locationId} is archived.` });
    }
    if (errors.length > 0) return { index: p.index, externalId: p.externalId, errors };
    const row: BankTransactionRow = {
      account_id: t.accountId ?? null,
      booked_on: t.bookedOn,
      amount: fmtAmount(t.amount),
      reference: t.reference ?? null,
      description: t.description ?? null,
      location_id: t.locationId ?? null,
    };
    return { index: p.index, externalId: t.externalId, row, errors: [], warnings: warnings.length > 0 ? warnings : undefined };
  });
}

/**
 * After the upsert, in its transaction: a re-sent transaction already paired with a deposit re-judges
 * that deposit when its amount changed (matched ↔ mismatched); every other new or changed credit looks
 * for its deposit. `cash.deposit_mismatch` for each deposit that is (still) mismatched with a new difference.
 */
async function matchStoredTransactions(w: Work, stored: StoredRecord<BankTransactionRow>[]) {
  if (stored.length === 0) return [];
  const { em, now } = w;
  const paired = await em
    .createQueryBuilder(DepositEntity)
    .select('*')
    .where({ bankTransactionId: { $in: stored.map((s) => s.id) } })
    .orderBy({ id: 'asc' })
    .setLockMode(LockMode.PESSIMISTIC_WRITE)
    .execute<DepositEntity[]>('all', true);
  const byBank = new Map(paired.map((p) => [p.bankTransactionId!, p]));
  const mismatched: string[] = [];
  for (const s of stored) {
    const deposit = byBank.get(s.id);
    if (!deposit || !s.before || new Decimal(String(s.before.amount)).eq(s.row.amount)) continue;
    const status = pairStatus(deposit.amount, s.row.amount);
    // locked above: its version + 1 is the stored version + 1
    await em.nativeUpdate(DepositEntity, { id: deposit.id }, { matchStatus: status, version: deposit.version + 1, updatedAt: now });
    if (status === 'mismatched') mismatched.push(deposit.id);
  }
  const credits = stored
    .filter((s) => !byBank.has(s.id))
    .map((s) => ({ id: s.id, amount: s.row.amount, bookedOn: s.row.booked_on, reference: s.row.reference, description: s.row.description }));
  const pairings = await matchCredits(w, credits);
  mismatched.push(...pairings.filter((p) => p.status === 'mismatched').map((p) => p.depositId));
  const dtos = await depositsById(w, mismatched);
  return mismatched.map((id) => depositEvent('cash.deposit_mismatch', dtos.get(id)!));
}

/**
 * `POST /cash/bank-transactions`: each record validated on its own, stored by (externalId, source)
 * with the kit's batch upsert, then matched (whichever of deposit and bank transaction arrives second).
 */
export async function storeBankTransactions(w: Work, opts: { source: string; records: unknown[]; endpoint: string }): Promise<BatchResult> {
  const records = await prepareBankRecords(w, opts.records);
  return ingestBatch(w, {
    target: bankTransactionsTarget,
    source: opts.source,
    records,
    area: 'cash',
    endpoint: opts.endpoint,
    // in the unit's transaction (the batch's savepoint is on its connection)
    afterStore: (_em, stored) => matchStoredTransactions(w, stored),
  });
}
