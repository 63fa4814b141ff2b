import type { BankTransaction, CashDeposit, DepositMatchStatus } from '@bop/contracts';
import { assertLocationInReach, decodeCursor, pageLimit, reachableLocationIds, sqlQuery, toPage, type EntityManager, type ListPage, type ReachSet } from '@bop/shared';
import { BANK_SELECT, DEPOSIT_SELECT, bankTransactionDto, depositDto, type BankRow, type DepositRow } from './dto';

const json = (v: unknown) => JSON.stringify(v);
const inList = (column: string) => `${column} = any(array(select jsonb_array_elements_text(?::jsonb)))`;

/** `GET /cash/deposits`: within the caller's reach, oldest first, by cursor. */
export async function listDeposits(
  em: EntityManager,
  reach: ReachSet,
  q: { limit?: number; cursor?: string; locationId?: string; matchStatus?: DepositMatchStatus; from?: string; updatedSince?: string },
): Promise<ListPage<CashDeposit>> {
  if (q.locationId) assertLocationInReach(reach, q.locationId);
  const reachable = reachableLocationIds(reach);
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => {
    where.push(sql);
    params.push(...values);
  };
  const after = decodeCursor(q.cursor);
  if (after) add(`d."id" > ?`, after);
  if (q.locationId) add(`d."location_id" = ?`, q.locationId);
  else if (reachable) add(inList(`d."location_id"`), json(reachable));
  if (q.matchStatus) add(`d."match_status" = ?`, q.matchStatus);
  if (q.from) add(`d."deposited_at" >= ?::timestamp at time zone 'UTC'`, q.from);
  if (q.updatedSince) add(`d."updated_at" >= ?`, new Date(q.updatedSince));
  const n = pageLimit(q.limit);
  const rows = await sqlQuery<DepositRow>(em, `${DEPOSIT_SELECT}${where.length > 0 ? ` where ${where.join(' and ')}` : ''} order by d."id" limit ?`, [...params, n + 1]);
  return toPage(rows, n, depositDto);
}

/**
 * `GET /cash/bank-transactions`: a person whose reach is some locations sees the transactions of those
 * locations and those matched to their deposits; integration keys and company-wide people see all.
 */
export async function listBankTransactions(em: EntityManager, reach: ReachSet, q: { limit?: number; cursor?: string; from?: string; matched?: 'true' | 'false' }): Promise<ListPage<BankTransaction>> {
  const reachable = reachableLocationIds(reach);
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => {
    where.push(sql);
    params.push(...values);
  };
  const after = decodeCursor(q.cursor);
  if (after) add(`b."id" > ?`, after);
  if (reachable) add(`(${inList(`b."location_id"`)} or ${inList(`d."location_id"`)})`, json(reachable), json(reachable));
  if (q.from) add(`b."booked_on" >= ?::date`, q.from);
  if (q.matched) where.push(q.matched === 'true' ? `d."id" is not null` : `d."id" is null`);
  const n = pageLimit(q.limit);
  const rows = await sqlQuery<BankRow>(em, `${BANK_SELECT}${where.length > 0 ? ` where ${where.join(' and ')}` : ''} order by b."id" limit ?`, [...params, n + 1]);
  return toPage(rows, n, bankTransactionDto);
}
