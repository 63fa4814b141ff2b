import type { BankTransaction, CashDeposit, DepositMatchStatus } from '@bop/contracts';
import { SqlWhere, assertLocationInReach, pageLimit, reachableLocationIds, sqlList, sqlQuery, toPage, type EntityManager, type ListPage, type ReachSet } from '@bop/shared';
import { BANK_SELECT, DEPOSIT_SELECT, bankTransactionDto, depositDto, type BankRow, type DepositRow } from './dto';

/** `GET /cash/deposits`: within the caller's reach, oldest first, by cursor. */
export async function listDeposits(
  em: EntityManager,
  reach: ReachSet,
  q: { limit?: number; cursor?: string; locationId?: string; matchStatus?: DepositMatchStatus; from?: string; updatedSince?: string },
): Promise<ListPage<CashDeposit>> {
  if (q.locationId) assertLocationInReach(reach, q.locationId);
  const reachable = reachableLocationIds(reach);
  const where = new SqlWhere().after(`d."id"`, q.cursor);
  if (q.locationId) where.and(`d."location_id" = ?`, q.locationId);
  else where.andIn(`d."location_id"`, reachable);
  where.andIf(q.matchStatus, `d."match_status" = ?`).andIf(q.from, `d."deposited_at" >= ?::timestamp at time zone 'UTC'`);
  if (q.updatedSince) where.and(`d."updated_at" >= ?`, new Date(q.updatedSince));
  const n = pageLimit(q.limit);
  const rows = await sqlQuery<DepositRow>(em, `${DEPOSIT_SELECT} ${where} order by d."id" limit ?`, [...where.params, n + 1]);
  return toPage(rows, n, depositDto);
}

/**
 * `GET /cash/bank-transactions`: a person whose reach is some locations sees the transactions of those
 * locations and those matched to their deposits; integration keys and company-wide people see all.
 */
export async function listBankTransactions(em: EntityManager, reach: ReachSet, q: { limit?: number; cursor?: string; from?: string; matched?: 'true' | 'false' }): Promise<ListPage<BankTransaction>> {
  const reachable = reachableLocationIds(reach);
  const where = new SqlWhere().after(`b."id"`, q.cursor);
  if (reachable) where.and(`(b."location_id" = any(?::text[]) or d."location_id" = any(?::text[]))`, sqlList(reachable), sqlList(reachable));
  where.andIf(q.from, `b."booked_on" >= ?::date`);
  if (q.matched) where.and(q.matched === 'true' ? `d."id" is not null` : `d."id" is null`);
  const n = pageLimit(q.limit);
  const rows = await sqlQuery<BankRow>(em, `${BANK_SELECT} ${where} order by b."id" limit ?`, [...where.params, n + 1]);
  return toPage(rows, n, bankTransactionDto);
}
