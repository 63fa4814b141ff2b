import { DEPOSIT_MATCH_WINDOW_DAYS } from '@bop/contracts';
import { raw } from '@mikro-orm/core';
import { findPlain, sqlList, sqlQuery, type EntityManager, type Work } from '@bop/shared';
import { DepositEntity } from './entities';
import { isCredit, pairOfCredit, pairOfDeposit, pairStatus, windowEnd, type CreditFacts, type DepositFacts, type MatchedBy } from './matching';

/**
 * The database side of matching (rules in domain.ts): the candidates of each side are locked before
 * they are read, so two writers never pair the same deposit or bank transaction (the unique index
 * deposits_bank_transaction_uq is the last guard). Deposits lock bank rows in (external_id, source)
 * order — the order a bank batch locks its own rows in — and bank batches lock deposits by id.
 */
const W = DEPOSIT_MATCH_WINDOW_DAYS;
const json = (v: unknown) => JSON.stringify(v);

interface CreditRow {
  id: string;
  amount: string;
  booked_on: string;
  reference: string | null;
  description: string | null;
}
const creditFacts = (r: CreditRow): CreditFacts => ({ id: r.id, amount: r.amount, bookedOn: r.booked_on, reference: r.reference, description: r.description });

const CREDIT_COLUMNS = `b."id", b."amount", to_char(b."booked_on", 'YYYY-MM-DD') as "booked_on", b."reference", b."description"`;

/** a bank row `b` could go to deposit `p` (by amount, or its reference or description contains p's reference) */
const creditFitsDeposit = `(b."amount" = p.amount or (p.reference is not null and (position(lower(p.reference) in lower(coalesce(b."reference", ''))) > 0
  or position(lower(p.reference) in lower(coalesce(b."description", ''))) > 0)))`;
/** a deposit `d` could take bank row `c` */
const depositFitsCredit = `(d."amount" = c.amount or (d."reference" is not null and (position(lower(d."reference") in lower(coalesce(c.reference, ''))) > 0
  or position(lower(d."reference") in lower(coalesce(c.description, ''))) > 0)))`;

// raw SQL below, the candidate searches: many probes in one statement (jsonb_to_recordset) matched by amount, date window and
// reference contained in the bank text (position/lower), locked in the order the module comment names; through the ORM, the windows'
// rows are read and the fits decided in code (bench:sql cash.match-deposit, cash.match-credits)

/** Unmatched credits (other than paired ones) that could go to any of these deposits. */
async function unmatchedCreditsFor(em: EntityManager, schema: string, deposits: DepositFacts[]): Promise<CreditFacts[]> {
  if (deposits.length === 0) return [];
  const probes = deposits.map((d) => ({ from: d.depositedOn, to: windowEnd(d.depositedOn), amount: d.amount, reference: d.reference }));
  // raw SQL (bench:sql cash.match-credits): 264,149 µs against 647,958 through the ORM (2.45×: the windows' rows read and fitted in code)
  const rows = await sqlQuery<CreditRow>(
    em,
    `select ${CREDIT_COLUMNS} from "${schema}"."bank_transactions" b
     where b."amount" > 0 and not exists (select 1 from "${schema}"."deposits" x where x."bank_transaction_id" = b."id")
       and exists (select 1 from jsonb_to_recordset(?::jsonb) as p("from" date, "to" date, amount numeric, reference text)
                   where b."booked_on" between p."from" and p."to" and ${creditFitsDeposit})`,
    [json(probes)],
  );
  return rows.map(creditFacts);
}

/** Ids of the unmatched deposits whose window holds one of these credits and that could take it. */
async function depositCandidateIds(em: EntityManager, schema: string, credits: CreditFacts[], lock: boolean): Promise<string[]> {
  if (credits.length === 0) return [];
  const probes = credits.map((c) => ({ booked_on: c.bookedOn, amount: c.amount, reference: c.reference, description: c.description }));
  // raw SQL (bench:sql cash.match-credits, cash.match-deposit): measured with its callers, matchCredits (locked) and matchDeposit
  const rows = await sqlQuery<{ id: string }>(
    em,
    `select o."id" from "${schema}"."deposits" o where o."id" in (
       select d."id" from jsonb_to_recordset(?::jsonb) as c(booked_on date, amount numeric, reference text, description text)
       join "${schema}"."deposits" d on d."bank_transaction_id" is null
         and d."deposited_at" >= (c.booked_on - ${W})::timestamp at time zone 'UTC' and d."deposited_at" < (c.booked_on + 1)::timestamp at time zone 'UTC'
         and ${depositFitsCredit})
     order by o."id"${lock ? ' for update' : ''}`,
    [json(probes)],
  );
  return rows.map((r) => r.id);
}

/** Unmatched deposits among these ids (a new statement: sees what a writer that held the lock committed). */
async function unmatchedDeposits(em: EntityManager, ids: string[]): Promise<DepositFacts[]> {
  if (ids.length === 0) return [];
  const rows = await findPlain(em, DepositEntity, { id: { $in: ids }, bankTransactionId: null }, { orderBy: { id: 'asc' } });
  return rows.map((r) => ({ id: r.id, amount: r.amount, depositedOn: new Date(r.depositedAt).toISOString().slice(0, 10), reference: r.reference ?? null }));
}

export interface Pairing {
  depositId: string;
  bankTransactionId: string;
  status: 'matched' | 'mismatched';
}

async function pair(em: EntityManager, depositId: string, credit: CreditFacts, depositAmount: string, by: MatchedBy, now: Date): Promise<Pairing> {
  const status = pairStatus(depositAmount, credit.amount);
  // raw SQL (bench:sql cash.match-deposit): the version bumped in the guarded update itself; through the ORM the row is loaded and flushed
  await em.nativeUpdate(DepositEntity, { id: depositId, bankTransactionId: null }, { bankTransactionId: credit.id, matchStatus: status, matchedBy: by, matchedAt: now, version: raw('version + 1'), updatedAt: now });
  return { depositId, bankTransactionId: credit.id, status };
}

/**
 * A deposit just recorded (still unmatched) looks for its bank credit: the candidates are locked
 * (a concurrent deposit racing for the same credit waits here, then finds it taken).
 */
export async function matchDeposit(w: Work, d: DepositFacts): Promise<Pairing | null> {
  const { em, schema, now } = w;
  const probe = [{ from: d.depositedOn, to: windowEnd(d.depositedOn), amount: d.amount, reference: d.reference }];
  // raw SQL (bench:sql cash.match-deposit): 32,676 µs against 68,625 through the ORM (2.1×: the window's bank lines read and fitted in code,
  // the pairing flushed); this and the next read: the candidate search above, locked in (external_id, source) order
  const locked = await sqlQuery<{ id: string }>(
    em,
    `select b."id" from "${schema}"."bank_transactions" b, jsonb_to_recordset(?::jsonb) as p("from" date, "to" date, amount numeric, reference text)
     where b."amount" > 0 and b."booked_on" between p."from" and p."to" and ${creditFitsDeposit}
     order by b."external_id", b."source" for update of b`,
    [json(probe)],
  );
  if (locked.length === 0) return null;
  const credits = (
    await sqlQuery<CreditRow>(
      em,
      `select ${CREDIT_COLUMNS} from "${schema}"."bank_transactions" b
       where b."id" = any(?::text[]) and not exists (select 1 from "${schema}"."deposits" x where x."bank_transaction_id" = b."id")`,
      [sqlList(locked.map((r) => r.id))],
    )
  ).map(creditFacts);
  const rivals = await unmatchedDeposits(em, (await depositCandidateIds(em, schema, credits, false)).filter((id) => id !== d.id));
  const found = pairOfDeposit(d, credits, rivals);
  return found ? pair(em, d.id, found.credit, d.amount, found.by, now) : null;
}

/**
 * Bank credits just stored (new or changed, not paired) look for their deposits, one after the other
 * (earliest booking first), each choice seeing the pairs made before it.
 */
export async function matchCredits(w: Work, credits: CreditFacts[]): Promise<Pairing[]> {
  const { em, schema, now } = w;
  const open = credits.filter((c) => isCredit(c.amount)).sort((a, b) => (a.bookedOn === b.bookedOn ? (a.id < b.id ? -1 : 1) : a.bookedOn < b.bookedOn ? -1 : 1));
  if (open.length === 0) return [];
  const lockedIds = await depositCandidateIds(em, schema, open, true);
  let deposits = await unmatchedDeposits(em, lockedIds);
  if (deposits.length === 0) return [];
  let rivals = await unmatchedCreditsFor(em, schema, deposits);
  const pairings: Pairing[] = [];
  for (const c of open) {
    const found = pairOfCredit(c, deposits, rivals);
    if (!found) continue;
    pairings.push(await pair(em, found.deposit.id, c, found.deposit.amount, found.by, now));
    deposits = deposits.filter((d) => d.id !== found.deposit.id);
    rivals = rivals.filter((r) => r.id !== c.id);
  }
  return pairings;
}
