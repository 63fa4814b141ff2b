import Decimal from 'decimal.js';
import { LockMode, defineEntity, p, type EntityName, type RequiredEntityData, type InferEntity } from '@mikro-orm/core';
import { addDays, findPlain, lockForTransaction, pageLimit, toPage, type Work } from '@bop/shared';
import { cashService } from '@svc/cash';
import { thresholdFor } from '@svc/cash/dist/counts/thresholds-store';
import { CashCountEntity, OverShortThresholdsEntity } from '@svc/cash/dist/counts/entities';
import { BusinessDayEntity } from '@svc/cash/dist/days/entities';
import { liveFigures } from '@svc/cash/dist/days/figures-store';
import { dayFigures, type DayRecords } from '@svc/cash/dist/days/figures';
import { closedDays, touchDays } from '@svc/cash/dist/days/lock-store';
import { applyLateRecords, lateRecordsOf } from '@svc/cash/dist/days/store';
import { dayKey, lateReview, type DayRef } from '@svc/cash/dist/days/lock';
import { BankTransactionEntity, DepositEntity } from '@svc/cash/dist/deposits/entities';
import { matchCredits, matchDeposit } from '@svc/cash/dist/deposits/match-store';
import { isCredit, pairOfCredit, pairOfDeposit, pairStatus, windowEnd, type CreditFacts, type DepositFacts, type MatchedBy } from '@svc/cash/dist/deposits/matching';
import { listBankTransactions, listDeposits } from '@svc/cash/dist/deposits/read-store';
import { bankTransactionDto, depositDto, type BankRow, type DepositRow } from '@svc/cash/dist/deposits/dto';
import { applyRecordedTenders, expectedAmounts } from '@svc/cash/dist/expected/store';
import { expectedByDay, type ExpectedRow } from '@svc/cash/dist/expected/expected';
import type { RecordedTransaction } from '@svc/cash/dist/expected/consumers';
import { SettlementEntity } from '@svc/cash/dist/settlements/entities';
import type { SqlCase } from './case';

/**
 * cash's kept raw statements against their best ORM forms. The tables cash writes only by raw SQL
 * (sales_transactions, tender_totals, expected_sales) have no entity in the service; the ORM forms
 * below use the entities declared here, registered on the bench's copy of the service.
 */
const SalesTransactionEntity = defineEntity({
  name: 'BenchSalesTransactionEntity',
  tableName: 'sales_transactions',
  properties: {
    id: p.string().primary(),
    locationId: p.string(),
    businessDay: p.string().columnType('date'),
    drawerId: p.string().nullable(),
    version: p.integer(),
    status: p.string(),
    tenders: p.json<RecordedTransaction['tenders']>(),
    lateReview: p.json<{ status: string; flaggedAt: string }>().nullable(),
    updatedAt: p.datetime(),
  },
});
type SalesTransactionEntity = InferEntity<typeof SalesTransactionEntity>;

const TenderTotalEntity = defineEntity({
  name: 'BenchTenderTotalEntity',
  tableName: 'tender_totals',
  properties: {
    id: p.string().primary(),
    source: p.string(),
    externalId: p.string(),
    contentHash: p.string(),
    version: p.integer(),
    locationId: p.string(),
    businessDay: p.string().columnType('date'),
    drawerId: p.string().nullable(),
    shiftId: p.string().nullable(),
    tenderType: p.string(),
    platform: p.string().nullable(),
    amount: p.decimal('string'),
    transactionCount: p.integer().nullable(),
    lateReview: p.json<{ status: string; flaggedAt: string }>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
type TenderTotalEntity = InferEntity<typeof TenderTotalEntity>;

const ExpectedSalesEntity = defineEntity({
  name: 'BenchExpectedSalesEntity',
  tableName: 'expected_sales',
  properties: {
    locationId: p.string().primary(),
    businessDay: p.string().columnType('date').primary(),
    drawerKey: p.string().primary(),
    tenderType: p.string().primary(),
    platformKey: p.string().primary(),
    amount: p.decimal('string'),
    tenders: p.integer(),
  },
});
type ExpectedSalesEntity = InferEntity<typeof ExpectedSalesEntity>;

/** cash with the entities above (one database for all of cash's cases) */
const benchCash = { ...cashService, entities: [...cashService.entities, SalesTransactionEntity, TenderTotalEntity, ExpectedSalesEntity] };

const LOCATIONS = 200;
/** locations with a year of counts, expected amounts, deposits, bank lines and payouts */
const BUSY = 20;
/** of those, the ones whose POS sends tender totals */
const WITH_TOTALS = 10;
const DRAWERS = ['d1', 'd2', 'd3', 'd4'];
const PLATFORMS = ['ubereats', 'doordash'];
const YEAR = Array.from({ length: 365 }, (_, i) => addDays('2026-01-01', i));
/** days before this are closed (with their figures locked) */
const FIRST_OPEN = '2026-11-01';
const SALES_DAY = 1000;
const loc = (i: number) => `loc_bench${String(i).padStart(4, '0')}`;
const L0 = loc(0);
const at = (day: string, hh: number, mm = 0) => new Date(`${day}T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00Z`);
const money = (cents: number) => (cents / 100).toFixed(2);
/** deterministic pseudo-random 0..n-1 */
const rnd = (seed: number, n: number) => Math.floor(((Math.sin(seed * 9301 + 49297) + 1) / 2) * 233280) % n;
/** the 14 open days listDays shows by default */
const SHOWN = YEAR.filter((d) => d >= '2026-11-10' && d <= '2026-11-23');
const LATE_DAYS = YEAR.filter((d) => d >= '2026-10-01' && d < FIRST_OPEN);

async function insertChunked<T extends object>(w: Work, entity: EntityName<T>, rows: Array<RequiredEntityData<T>>): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) await w.em.insertMany<T>(entity, rows.slice(i, i + 5000) as T[]);
}

let seeded: Promise<void> | undefined;
/** The busy store every case of cash meets (seeded once; each case's `seed` awaits it). */
function seedStore(write: <T>(fn: (w: Work) => Promise<T>) => Promise<T>): Promise<void> {
  seeded ??= (async () => {
    const actor = { type: 'system', id: null };
    // business days: 200 locations × a year, closed before November
    await write(async (w) => {
      const rows = Array.from({ length: LOCATIONS }, (_, i) => loc(i)).flatMap((locationId) =>
        YEAR.map((businessDay) => {
          const closed = businessDay < FIRST_OPEN;
          return { locationId, businessDay, status: closed ? 'closed' : 'open', figures: closed ? ({} as never) : null, closedAt: closed ? at(addDays(businessDay, 1), 6) : null, closedBy: closed ? actor : null, closeNote: null, reopenedAt: null, reopenedBy: null, reopenReason: null, version: closed ? 2 : 1, createdAt: at(businessDay, 6), updatedAt: at(businessDay, 6) };
        }),
      );
      await insertChunked(w, BusinessDayEntity, rows);
    });
    // counts: per busy location and day, 4 drawers × (2 skims + a drawer count) and a safe count
    await write(async (w) => {
      const rows: Array<RequiredEntityData<CashCountEntity>> = [];
      let n = 0;
      for (let l = 0; l < BUSY; l++)
        for (const day of YEAR) {
          const base = { locationId: loc(l), businessDay: day, denominations: [], threshold: null, exceeded: false, explanation: null, note: null, countedBy: actor };
          for (const [k, drawerId] of DRAWERS.entries()) {
            for (const hh of [14, 18]) rows.push({ ...base, id: `cnt_${String(++n).padStart(8, '0')}`, type: 'skim', drawerId, countedAt: at(day, hh, k), amount: money(20000 + rnd(n, 10000)), openingFloat: null, expected: null, overShort: null, createdAt: at(day, hh, k) });
            rows.push({ ...base, id: `cnt_${String(++n).padStart(8, '0')}`, type: 'drawer', drawerId, countedAt: at(day, 22, k), amount: money(40000 + rnd(n, 20000)), openingFloat: '200.00', expected: '500.00', overShort: '-1.00', createdAt: at(day, 22, k) });
          }
          rows.push({ ...base, id: `cnt_${String(++n).padStart(8, '0')}`, type: 'safe', drawerId: null, countedAt: at(day, 23), amount: money(150000 + rnd(n, 50000)), openingFloat: null, expected: '1500.00', overShort: '0.00', createdAt: at(day, 23) });
        }
      await insertChunked(w, CashCountEntity, rows);
    });
    // expected amounts from sales: per busy location and day, cash and card of each drawer, each platform
    await write(async (w) => {
      const rows: ExpectedSalesEntity[] = [];
      let n = 0;
      for (let l = 0; l < BUSY; l++)
        for (const businessDay of YEAR) {
          for (const drawerKey of DRAWERS) for (const tenderType of ['cash', 'card']) rows.push({ locationId: loc(l), businessDay, drawerKey, tenderType, platformKey: '', amount: money(100000 + rnd(++n, 50000)), tenders: 120 });
          for (const platformKey of PLATFORMS) rows.push({ locationId: loc(l), businessDay, drawerKey: '', tenderType: 'platform', platformKey, amount: money(30000 + rnd(++n, 20000)), tenders: 30 });
        }
      await insertChunked(w, ExpectedSalesEntity, rows);
    });
    // tender totals: the locations whose POS sends them, per drawer cash and card, a few late ones in October
    await write(async (w) => {
      const rows: TenderTotalEntity[] = [];
      let n = 0;
      for (let l = 0; l < WITH_TOTALS; l++)
        for (const businessDay of YEAR)
          for (const drawerId of DRAWERS)
            for (const tenderType of ['cash', 'card']) {
              n++;
              const late = LATE_DAYS.includes(businessDay) && drawerId === 'd1';
              rows.push({ id: `tt_${String(n).padStart(8, '0')}`, source: 'pos', externalId: `tt-${n}`, contentHash: `h${n}`, version: 1, locationId: loc(l), businessDay, drawerId, shiftId: null, tenderType, platform: null, amount: money(90000 + rnd(n, 50000)), transactionCount: 100, lateReview: late ? lateReview(at(addDays(businessDay, 2), 9)) : null, createdAt: at(businessDay, 23), updatedAt: at(businessDay, 23) });
            }
      await insertChunked(w, TenderTotalEntity, rows);
    });
    // sales transactions of one location: 1,000 a day from October on, 5 a closed day arrived late
    await write(async (w) => {
      const rows: SalesTransactionEntity[] = [];
      for (const businessDay of YEAR.filter((d) => d >= '2026-10-01' && d <= '2026-11-28'))
        for (let i = 0; i < SALES_DAY; i++) {
          const id = `st_${businessDay.replace(/-/g, '')}_${String(i).padStart(4, '0')}`;
          const late = businessDay < FIRST_OPEN && i < 5;
          rows.push({ id, locationId: L0, businessDay, drawerId: DRAWERS[i % 4], version: 1, status: 'completed', tenders: [{ type: i % 3 === 0 ? 'cash' : 'card', amount: money(500 + rnd(i, 4000)), change: i % 3 === 0 ? '0.50' : null }], lateReview: late ? lateReview(at(addDays(businessDay, 1), 10, i)) : null, updatedAt: at(businessDay, 12) });
        }
      await insertChunked(w, SalesTransactionEntity, rows);
    });
    // payouts: per busy location a card payout a day (the day before) and a weekly one per platform (its 7 days)
    await write(async (w) => {
      const rows: SettlementEntity[] = [];
      let n = 0;
      const base = { source: 'processor', fees: '10.00', net: '0.00', reference: null, matchStatus: 'matched', difference: '0.00' };
      for (let l = 0; l < BUSY; l++)
        YEAR.forEach((paidOn, i) => {
          if (i === 0) return;
          const day = YEAR[i - 1];
          n++;
          rows.push({ ...base, id: `stl_${String(n).padStart(8, '0')}`, externalId: `po-${n}`, contentHash: `h${n}`, version: 1, locationId: loc(l), kind: 'card', processor: 'stripe', platform: null, tenderTypes: ['card'], gross: money(400000 + rnd(n, 1000)), paidOn, businessDays: [day], expectedGross: '4000.00', matchedAt: at(paidOn, 8), lateReview: l === 0 && LATE_DAYS.includes(day) && i % 5 === 0 ? lateReview(at(paidOn, 9)) : null, createdAt: at(paidOn, 8), updatedAt: at(paidOn, 8) });
          if (i % 7 === 0)
            for (const platform of PLATFORMS) {
              n++;
              rows.push({ ...base, id: `stl_${String(n).padStart(8, '0')}`, externalId: `po-${n}`, contentHash: `h${n}`, version: 1, locationId: loc(l), kind: 'platform', processor: platform, platform, tenderTypes: ['platform'], gross: money(250000 + rnd(n, 1000)), paidOn, businessDays: YEAR.slice(Math.max(0, i - 7), i), expectedGross: '2500.00', matchedAt: at(paidOn, 8), lateReview: null, createdAt: at(paidOn, 8), updatedAt: at(paidOn, 8) });
            }
        });
      await insertChunked(w, SettlementEntity, rows);
    });
    // deposits and the bank: per busy location a deposit a day, its credit booked the next day (matched), the last 10 days' unmatched; a debit a day
    await write(async (w) => {
      const deposits: DepositEntity[] = [];
      const bank: BankTransactionEntity[] = [];
      let n = 0;
      for (let l = 0; l < BUSY; l++)
        for (const day of YEAR.filter((d) => d <= '2026-11-27')) {
          n++;
          const amount = money(150000 + rnd(n, 50000));
          const reference = `DEP-${l}-${day.replace(/-/g, '')}`;
          const matched = day < '2026-11-18';
          const creditId = `bt_${String(n).padStart(8, '0')}c`;
          deposits.push({ id: `dep_${day.replace(/-/g, '')}_${String(l).padStart(4, '0')}`, locationId: loc(l), businessDays: [day], amount, depositedAt: at(day, 23, 30), reference, bankAccount: 'main', note: null, matchStatus: matched ? 'matched' : 'unmatched', bankTransactionId: matched ? creditId : null, matchedBy: matched ? 'amount' : null, matchedAt: matched ? at(addDays(day, 1), 9) : null, recordedBy: actor, version: 1, createdAt: at(day, 23, 30), updatedAt: at(day, 23, 30) });
          bank.push({ id: creditId, source: 'bank', externalId: `ext-${n}c`, contentHash: `h${n}c`, version: 1, accountId: 'main', bookedOn: addDays(day, 1), amount, reference: `Cash deposit ${reference}`, description: 'CASH DEPOSIT', locationId: loc(l), createdAt: at(addDays(day, 1), 8), updatedAt: at(addDays(day, 1), 8) });
          bank.push({ id: `bt_${String(n).padStart(8, '0')}d`, source: 'bank', externalId: `ext-${n}d`, contentHash: `h${n}d`, version: 1, accountId: 'main', bookedOn: addDays(day, 1), amount: `-${money(10000 + rnd(n + 7, 50000))}`, reference: null, description: 'SUPPLIER PAYMENT', locationId: loc(l), createdAt: at(addDays(day, 1), 8), updatedAt: at(addDays(day, 1), 8) });
        }
      await insertChunked(w, DepositEntity, deposits);
      await insertChunked(w, BankTransactionEntity, bank);
    });
  })();
  return seeded;
}

const mapEntries = <K, V>(m: Map<K, V>) => [...m.entries()];

/** a sales batch of 1,000: 500 new transactions of today, 500 new versions of stored ones */
const SALES_BATCH: RecordedTransaction[] = Array.from({ length: 1000 }, (_, i) => {
  const stored = i % 2 === 1;
  const id = stored ? `st_20261127_${String(i).padStart(4, '0')}` : `st_20261128_n${String(i).padStart(4, '0')}`;
  return { id, version: 2, locationId: L0, businessDay: stored ? '2026-11-27' : '2026-11-28', status: i % 50 === 1 ? 'voided' : 'completed', registerId: DRAWERS[i % 4], tenders: [{ type: i % 3 === 0 ? 'cash' : 'card', amount: money(700 + rnd(i + 3, 4000)), change: i % 3 === 0 ? '1.00' : null }] };
});

/** the unmatched deposit of one location's last day, just recorded */
const NEW_DEPOSIT = async (w: Work): Promise<DepositFacts> => {
  const [d] = await findPlain(w.em, DepositEntity, { locationId: loc(3), bankTransactionId: null }, { orderBy: { id: 'desc' }, limit: 1 });
  return { id: d.id, amount: d.amount, depositedOn: new Date(d.depositedAt).toISOString().slice(0, 10), reference: d.reference ?? null };
};

/** a bank batch's credits just stored: a day's statement, every busy location's deposit credited */
const NEW_CREDITS = async (w: Work): Promise<CreditFacts[]> => {
  const rows = await findPlain(w.em, BankTransactionEntity, { bookedOn: '2026-11-28', amount: { $gt: '0' } }, { orderBy: { id: 'asc' } });
  return rows.map((r) => ({ id: r.id, amount: r.amount, bookedOn: r.bookedOn, reference: r.reference ?? null, description: r.description ?? null }));
};

const likeText = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const contains = (hay: string | null, needle: string) => (hay ?? '').toLowerCase().includes(needle.toLowerCase());

/** ORM: the credits (amount > 0, unpaired) a deposit could take, over the deposits' windows, filtered by fit in code */
async function ormCreditsFor(w: Work, deposits: DepositFacts[], lock: boolean): Promise<CreditFacts[]> {
  const from = deposits.map((d) => d.depositedOn).sort()[0];
  const to = deposits.map((d) => windowEnd(d.depositedOn)).sort().at(-1)!;
  const qb = w.em
    .createQueryBuilder(BankTransactionEntity)
    .select(['id', 'amount', 'bookedOn', 'reference', 'description', 'externalId', 'source'])
    .where({ amount: { $gt: 0 }, bookedOn: { $gte: from, $lte: to } });
  if (deposits.length === 1 && deposits[0].reference) {
    const ref = likeText(deposits[0].reference);
    qb.andWhere({ $or: [{ amount: deposits[0].amount }, { reference: { $ilike: ref } }, { description: { $ilike: ref } }] });
  } else if (deposits.length === 1) qb.andWhere({ amount: deposits[0].amount });
  qb.orderBy({ externalId: 'asc', source: 'asc' });
  if (lock) qb.setLockMode(LockMode.PESSIMISTIC_WRITE);
  const rows = await qb.execute<BankTransactionEntity[]>('all', true);
  const fits = (b: BankTransactionEntity, d: DepositFacts) =>
    b.bookedOn >= d.depositedOn && b.bookedOn <= windowEnd(d.depositedOn) && (new Decimal(b.amount).eq(d.amount) || (d.reference !== null && (contains(b.reference ?? null, d.reference) || contains(b.description ?? null, d.reference))));
  const cands = rows.filter((b) => deposits.some((d) => fits(b, d)));
  if (cands.length === 0) return [];
  const taken = new Set((await w.em.createQueryBuilder(DepositEntity).select(['bankTransactionId']).where({ bankTransactionId: { $in: cands.map((c) => c.id) } }).execute<DepositEntity[]>('all', true)).map((d) => d.bankTransactionId));
  return cands.filter((c) => !taken.has(c.id)).map((b) => ({ id: b.id, amount: b.amount, bookedOn: b.bookedOn, reference: b.reference ?? null, description: b.description ?? null }));
}

/** ORM: the unmatched deposits whose window holds one of these credits and that could take it (locked by id when `lock`) */
async function ormDepositCandidates(w: Work, credits: CreditFacts[], lock: boolean): Promise<DepositFacts[]> {
  const W = Number(windowEnd('2026-01-01').slice(8, 10)) - 1;
  const from = addDays(credits.map((c) => c.bookedOn).sort()[0], -W);
  const to = addDays(credits.map((c) => c.bookedOn).sort().at(-1)!, 1);
  const rows = await w.em
    .createQueryBuilder(DepositEntity)
    .select(['id', 'amount', 'depositedAt', 'reference'])
    .where({ bankTransactionId: null, depositedAt: { $gte: new Date(`${from}T00:00:00Z`), $lt: new Date(`${to}T00:00:00Z`) } })
    .execute<DepositEntity[]>('all', true);
  const facts = rows.map((r) => ({ id: r.id, amount: r.amount, depositedOn: new Date(r.depositedAt).toISOString().slice(0, 10), reference: r.reference ?? null }));
  const fits = (d: DepositFacts, c: CreditFacts) =>
    c.bookedOn >= d.depositedOn && c.bookedOn <= windowEnd(d.depositedOn) && (new Decimal(d.amount).eq(c.amount) || (d.reference !== null && (contains(c.reference, d.reference) || contains(c.description, d.reference))));
  const ids = facts.filter((d) => credits.some((c) => fits(d, c))).map((d) => d.id).sort();
  if (ids.length === 0) return [];
  const qb = w.em.createQueryBuilder(DepositEntity).select(['id', 'amount', 'depositedAt', 'reference']).where({ id: { $in: ids }, bankTransactionId: null }).orderBy({ id: 'asc' });
  if (lock) qb.setLockMode(LockMode.PESSIMISTIC_WRITE);
  return (await qb.execute<DepositEntity[]>('all', true)).map((r) => ({ id: r.id, amount: r.amount, depositedOn: new Date(r.depositedAt).toISOString().slice(0, 10), reference: r.reference ?? null }));
}

async function ormPair(w: Work, depositId: string, credit: CreditFacts, depositAmount: string, by: MatchedBy): Promise<{ depositId: string; bankTransactionId: string; status: 'matched' | 'mismatched' }> {
  const status = pairStatus(depositAmount, credit.amount);
  const d = await w.em.findOneOrFail(DepositEntity, { id: depositId, bankTransactionId: null });
  Object.assign(d, { bankTransactionId: credit.id, matchStatus: status, matchedBy: by, matchedAt: w.now, version: d.version + 1, updatedAt: w.now });
  await w.em.flush();
  return { depositId, bankTransactionId: credit.id, status };
}

/** ORM: the expected rows of sales and of tender totals (summed in code) of a location's days */
async function ormExpectedAmounts(w: Work, locationId: string, days: string[]) {
  const sales = await w.em
    .createQueryBuilder(ExpectedSalesEntity)
    .select(['businessDay', 'drawerKey', 'tenderType', 'platformKey', 'amount'])
    .where({ locationId, businessDay: { $in: days }, tenders: { $gt: 0 } })
    .execute<ExpectedSalesEntity[]>('all', true);
  const fromSales: ExpectedRow[] = sales.map((r) => ({ business_day: r.businessDay, drawer_id: r.drawerKey === '' ? null : r.drawerKey, tender_type: r.tenderType as ExpectedRow['tender_type'], platform: r.tenderType === 'platform' && r.platformKey !== '' ? r.platformKey : null, amount: r.amount }));
  const totals = await w.em
    .createQueryBuilder(TenderTotalEntity)
    .select(['businessDay', 'drawerId', 'tenderType', 'platform', 'amount'])
    .where({ locationId, businessDay: { $in: days } })
    .execute<TenderTotalEntity[]>('all', true);
  const sums = new Map<string, ExpectedRow & { sum: Decimal }>();
  for (const t of totals) {
    const k = JSON.stringify([t.businessDay, t.drawerId ?? null, t.tenderType, t.platform ?? null]);
    const s = sums.get(k) ?? { business_day: t.businessDay, drawer_id: t.drawerId ?? null, tender_type: t.tenderType as ExpectedRow['tender_type'], platform: t.platform ?? null, amount: '', sum: new Decimal(0) };
    s.sum = s.sum.plus(t.amount);
    sums.set(k, s);
  }
  const fromTotals = [...sums.values()].map(({ sum, ...r }) => ({ ...r, amount: sum.toFixed(2) }));
  return expectedByDay(days, fromSales, fromTotals);
}

export const cashCases: SqlCase[] = [
  {
    name: 'cash.threshold-for',
    what: 'the threshold of one location and count type among a company set (200 locations × 3 types)',
    service: benchCash,
    async seed(write) {
      await seedStore(write);
      const thresholds = [null, ...Array.from({ length: LOCATIONS }, (_, i) => loc(i))].flatMap((locationId) =>
        (['drawer', 'safe', 'business_day'] as const).map((countType) => ({ locationId, countType, amount: '5.00', percent: null })),
      );
      await write((w) => w.em.nativeUpdate(OverShortThresholdsEntity, { id: 1 }, { thresholds, version: 2, updatedAt: w.now }));
    },
    raw: (w) => thresholdFor(w, loc(150), 'safe'),
    async orm(w) {
      const row = await w.em.findOneOrFail(OverShortThresholdsEntity, { id: 1 });
      const own = row.thresholds.find((t) => t.countType === 'safe' && t.locationId === loc(150));
      const t = own ?? row.thresholds.find((x) => x.countType === 'safe' && x.locationId === null);
      return t ? { amount: t.amount, percent: t.percent } : null;
    },
  },
  {
    name: 'cash.live-figures',
    what: "14 open days' figures of a location: expected amounts, latest counts, deposits and payouts covering them",
    service: benchCash,
    seed: seedStore,
    raw: async (w) => mapEntries(await liveFigures(w, L0, SHOWN)),
    async orm(w) {
      const expected = await expectedAmounts(w, L0, SHOWN);
      const counts = await w.em
        .createQueryBuilder(CashCountEntity)
        .select(['id', 'businessDay', 'type', 'drawerId', 'countedAt', 'amount', 'openingFloat', 'overShort', 'exceeded'])
        .where({ locationId: L0, businessDay: { $in: SHOWN }, type: { $in: ['drawer', 'skim'] } })
        .orderBy({ countedAt: 'asc', id: 'asc' })
        .execute<CashCountEntity[]>('all', true);
      // the latest of each day, type and drawer: the last of its key in time order
      const last = new Map(counts.map((r) => [`${r.businessDay}|${r.type}|${r.drawerId ?? ''}`, r.id]));
      const countRecords: DayRecords['counts'] = counts.map((r) => ({
        business_day: r.businessDay,
        type: r.type,
        drawer_id: r.drawerId ?? null,
        amount: r.amount,
        opening_float: r.openingFloat ?? null,
        over_short: r.overShort ?? null,
        exceeded: r.exceeded,
        latest: last.get(`${r.businessDay}|${r.type}|${r.drawerId ?? ''}`) === r.id,
      }));
      const deposits = await w.em
        .createQueryBuilder(DepositEntity)
        .select(['id', 'amount', 'businessDays', 'matchStatus'])
        .where({ locationId: L0, businessDays: { $hasSomeKeys: SHOWN } })
        .orderBy({ depositedAt: 'asc', id: 'asc' })
        .execute<DepositEntity[]>('all', true);
      const settlements = await w.em
        .createQueryBuilder(SettlementEntity)
        .select(['id', 'kind', 'processor', 'gross', 'difference', 'matchStatus', 'businessDays'])
        .where({ locationId: L0, businessDays: { $hasSomeKeys: SHOWN } })
        .orderBy({ paidOn: 'asc', id: 'asc' })
        .execute<SettlementEntity[]>('all', true);
      return mapEntries(
        dayFigures(SHOWN, {
          expected,
          counts: countRecords,
          deposits: deposits.map((d) => ({ id: d.id, amount: d.amount, business_days: d.businessDays, match_status: d.matchStatus })),
          settlements: settlements.map((s) => ({ id: s.id, kind: s.kind, processor: s.processor, gross: s.gross, difference: s.difference, match_status: s.matchStatus, business_days: s.businessDays })),
        }),
      );
    },
  },
  {
    name: 'cash.late-records',
    what: "the late records of a location's 31 days (sales transactions, tender totals, payouts), one ordered list",
    service: benchCash,
    seed: seedStore,
    raw: async (w) => mapEntries(await lateRecordsOf(w.em, w.schema, L0, LATE_DAYS)),
    async orm(w) {
      const sales = await w.em
        .createQueryBuilder(SalesTransactionEntity)
        .select(['id', 'businessDay', 'version', 'status', 'lateReview'])
        .where({ locationId: L0, lateReview: { $ne: null }, businessDay: { $in: LATE_DAYS } })
        .execute<SalesTransactionEntity[]>('all', true);
      const totals = await w.em
        .createQueryBuilder(TenderTotalEntity)
        .select(['id', 'businessDay', 'externalId', 'source', 'tenderType', 'platform', 'amount', 'lateReview'])
        .where({ locationId: L0, lateReview: { $ne: null }, businessDay: { $in: LATE_DAYS } })
        .execute<TenderTotalEntity[]>('all', true);
      const payouts = await w.em
        .createQueryBuilder(SettlementEntity)
        .select(['id', 'businessDays', 'externalId', 'processor', 'gross', 'lateReview'])
        .where({ locationId: L0, lateReview: { $ne: null }, businessDays: { $hasSomeKeys: LATE_DAYS } })
        .execute<SettlementEntity[]>('all', true);
      type Late = { kind: 'sales_transaction' | 'tender_total' | 'settlement'; id: string; day: string; message: string; flaggedAt: string; status: 'pending' | 'applied' };
      const rows: Late[] = [
        ...sales.map((r) => ({ kind: 'sales_transaction' as const, id: r.id, day: r.businessDay, message: `Sales transaction ${r.id} (version ${r.version}, ${r.status})`, flaggedAt: r.lateReview!.flaggedAt, status: r.lateReview!.status as Late['status'] })),
        ...totals.map((r) => ({ kind: 'tender_total' as const, id: r.id, day: r.businessDay, message: `Tender total ${r.externalId} from ${r.source}: ${r.tenderType}${r.platform ? ` ${r.platform}` : ''} ${r.amount}`, flaggedAt: r.lateReview!.flaggedAt, status: r.lateReview!.status as Late['status'] })),
        ...payouts.flatMap((s) => s.businessDays.filter((d) => LATE_DAYS.includes(d)).map((day) => ({ kind: 'settlement' as const, id: s.id, day, message: `Payout ${s.externalId} from ${s.processor}: gross ${s.gross}`, flaggedAt: s.lateReview!.flaggedAt, status: s.lateReview!.status as Late['status'] }))),
      ];
      rows.sort((a, b) => (a.flaggedAt === b.flaggedAt ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.flaggedAt < b.flaggedAt ? -1 : 1));
      const out = new Map<string, Array<Omit<Late, 'day'>>>(LATE_DAYS.map((d) => [d, []]));
      for (const { day, ...r } of rows) out.get(day)?.push({ kind: r.kind, id: r.id, message: r.message, flaggedAt: r.flaggedAt, status: r.status });
      return mapEntries(out);
    },
  },
  {
    name: 'cash.apply-late-records',
    what: "a reopened day's pending late records applied (5 sales transactions, 2 tender totals, a payout among 1,000 sales)",
    service: benchCash,
    seed: seedStore,
    raw: async (w) => {
      await applyLateRecords(w, L0, '2026-10-15');
      return lateStatuses(w);
    },
    async orm(w) {
      const day = '2026-10-15';
      const sales = await w.em.find(SalesTransactionEntity, { locationId: L0, businessDay: day, lateReview: { status: 'pending' } });
      const totals = await w.em.find(TenderTotalEntity, { locationId: L0, businessDay: day, lateReview: { status: 'pending' } });
      const payouts = await w.em.find(SettlementEntity, { locationId: L0, businessDays: { $hasKey: day }, lateReview: { status: 'pending' } } as never);
      for (const r of [...sales, ...totals, ...payouts]) r.lateReview = { ...r.lateReview!, status: 'applied' };
      await w.em.flush();
      return lateStatuses(w);
    },
  },
  {
    name: 'cash.closed-days',
    what: 'the closed days among a batch\'s 60 pairs, key-share locked in key order, on the path of every sale and batch',
    service: benchCash,
    seed: seedStore,
    raw: async (w) => [...(await closedDays(w, OLD_DAYS, { lock: true }))].sort(),
    async orm(w) {
      const pairs = [...new Map(OLD_DAYS.map((d) => [dayKey(d), d])).values()];
      const rows = await w.em
        .createQueryBuilder(BusinessDayEntity)
        .select(['locationId', 'businessDay', 'status'])
        .where({ $or: pairs.map((d) => ({ locationId: d.locationId, businessDay: d.businessDay })) })
        .orderBy({ locationId: 'asc', businessDay: 'asc' })
        .setLockMode(LockMode.PESSIMISTIC_READ)
        .execute<BusinessDayEntity[]>('all', true);
      return rows.filter((r) => r.status === 'closed').map((r) => `${r.locationId}|${r.businessDay}`).sort();
    },
  },
  {
    name: 'cash.expected-amounts',
    what: "14 days' expected amounts of a location (sales' running sums and summed tender totals)",
    service: benchCash,
    seed: seedStore,
    raw: async (w) => mapEntries(await expectedAmounts(w, L0, SHOWN)),
    orm: async (w) => mapEntries(await ormExpectedAmounts(w, L0, SHOWN)),
  },
  {
    name: 'cash.apply-recorded-tenders',
    what: "a sales batch of 1,000 (500 new, 500 new versions) stored and the day's running expected sums moved",
    service: benchCash,
    seed: seedStore,
    raw: async (w) => ({ days: await applyRecordedTenders(w, SALES_BATCH), state: await tendersState(w) }),
    async orm(w) {
      const { em, now } = w;
      const newest = new Map<string, RecordedTransaction>();
      for (const t of SALES_BATCH) if ((newest.get(t.id)?.version ?? 0) < t.version) newest.set(t.id, t);
      const list = [...newest.values()];
      await lockForTransaction(em, `${w.schema}.expected_sales`);
      const stored = await em.find(SalesTransactionEntity, { id: { $in: list.map((t) => t.id) } }, { orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE });
      const before = new Map(stored.map((s) => [s.id, { location_id: s.locationId, business_day: s.businessDay, drawer_id: s.drawerId ?? null, tenders: s.tenders, version: s.version }]));
      const fresh = list.filter((t) => (before.get(t.id)?.version ?? 0) < t.version);
      const days = new Map<string, DayRef>();
      for (const t of fresh) {
        days.set(dayKey({ locationId: t.locationId, businessDay: t.businessDay }), { locationId: t.locationId, businessDay: t.businessDay });
        const b = before.get(t.id);
        if (b) days.set(dayKey({ locationId: b.location_id, businessDay: b.business_day }), { locationId: b.location_id, businessDay: b.business_day });
      }
      const touched = [...days.values()];
      await touchDays(w, touched);
      const closed = await closedDays(w, touched, { lock: true });
      const byId = new Map(stored.map((s) => [s.id, s]));
      for (const t of fresh) {
        const b = before.get(t.id);
        const late = closed.size > 0 && (closed.has(dayKey({ locationId: t.locationId, businessDay: t.businessDay })) || (b !== undefined && closed.has(dayKey({ locationId: b.location_id, businessDay: b.business_day }))));
        const values = { locationId: t.locationId, businessDay: t.businessDay, drawerId: t.registerId ?? null, version: t.version, status: t.status, tenders: t.status === 'voided' ? [] : t.tenders, updatedAt: now };
        const e = byId.get(t.id);
        if (e) Object.assign(e, values, { lateReview: late ? lateReview(now) : e.lateReview });
        else em.create(SalesTransactionEntity, { id: t.id, ...values, lateReview: late ? lateReview(now) : null });
      }
      // the running sums: grouped in code, the rows read, changed and flushed
      const sums = new Map<string, { key: [string, string, string, string, string]; amount: Decimal; tenders: number }>();
      const add = (location: string, day: string, drawer: string, sign: number, tenders: RecordedTransaction['tenders']) => {
        for (const d of tenders) {
          const key: [string, string, string, string, string] = [location, day, drawer, d.type, d.type === 'platform' ? (d.platform ?? '') : ''];
          const k = key.join('|');
          const s = sums.get(k) ?? { key, amount: new Decimal(0), tenders: 0 };
          s.amount = s.amount.plus(new Decimal(d.amount).minus(d.change ?? 0).times(sign));
          s.tenders += sign;
          sums.set(k, s);
        }
      };
      for (const t of fresh) {
        const b = before.get(t.id);
        if (b && b.tenders.length > 0) add(b.location_id, b.business_day, b.drawer_id ?? '', -1, b.tenders);
        if (t.status !== 'voided' && t.tenders.length > 0) add(t.locationId, t.businessDay, t.registerId ?? '', 1, t.tenders);
      }
      if (sums.size > 0) {
        const keys = [...sums.values()].map((s) => s.key);
        const existing = await em.find(ExpectedSalesEntity, { locationId: { $in: [...new Set(keys.map((k) => k[0]))] }, businessDay: { $in: [...new Set(keys.map((k) => k[1]))] } });
        const have = new Map(existing.map((e) => [[e.locationId, e.businessDay, e.drawerKey, e.tenderType, e.platformKey].join('|'), e]));
        for (const [k, s] of sums) {
          const e = have.get(k);
          if (e) {
            e.amount = new Decimal(e.amount).plus(s.amount).toString();
            e.tenders += s.tenders;
          } else em.create(ExpectedSalesEntity, { locationId: s.key[0], businessDay: s.key[1], drawerKey: s.key[2], tenderType: s.key[3], platformKey: s.key[4], amount: s.amount.toString(), tenders: s.tenders });
        }
      }
      await em.flush();
      return { days: touched, state: await tendersState(w) };
    },
  },
  {
    name: 'cash.match-deposit',
    what: 'a deposit just recorded looks for its credit among a year of bank lines (candidates locked, rivals read, paired)',
    service: benchCash,
    seed: seedStore,
    raw: async (w) => matchDeposit(w, await NEW_DEPOSIT(w)),
    async orm(w) {
      const d = await NEW_DEPOSIT(w);
      const credits = await ormCreditsFor(w, [d], true);
      if (credits.length === 0) return null;
      const rivals = (await ormDepositCandidates(w, credits, false)).filter((r) => r.id !== d.id);
      const found = pairOfDeposit(d, credits, rivals);
      return found ? ormPair(w, d.id, found.credit, d.amount, found.by) : null;
    },
  },
  {
    name: 'cash.match-credits',
    what: "a bank batch's 20 new credits (a day's statement) look for their deposits (candidates locked, rivals read, paired one by one)",
    service: benchCash,
    seed: seedStore,
    raw: async (w) => matchCredits(w, await NEW_CREDITS(w)),
    async orm(w) {
      const credits = await NEW_CREDITS(w);
      const open = credits.filter((c) => isCredit(c.amount)).sort((a, b) => (a.bookedOn === b.bookedOn ? (a.id < b.id ? -1 : 1) : a.bookedOn < b.bookedOn ? -1 : 1));
      let deposits = await ormDepositCandidates(w, open, true);
      if (deposits.length === 0) return [];
      let rivals = await ormCreditsFor(w, deposits, false);
      const out = [];
      for (const c of open) {
        const found = pairOfCredit(c, deposits, rivals);
        if (!found) continue;
        out.push(await ormPair(w, found.deposit.id, c, found.deposit.amount, found.by));
        deposits = deposits.filter((d) => d.id !== found.deposit.id);
        rivals = rivals.filter((r) => r.id !== c.id);
      }
      return out;
    },
  },
  {
    name: 'cash.list-deposits',
    what: 'GET /cash/deposits, a page of 50 (each deposit with its bank line\'s amount) among a year of 20 locations',
    service: benchCash,
    seed: seedStore,
    raw: (w) => listDeposits(w, { limit: 50, from: '2026-06-01' }),
    async orm(w) {
      const n = pageLimit(50);
      const deposits = await w.em
        .createQueryBuilder(DepositEntity)
        .select('*')
        .where({ depositedAt: { $gte: new Date('2026-06-01T00:00:00Z') } })
        .orderBy({ id: 'asc' })
        .limit(n + 1)
        .execute<DepositEntity[]>('all', true);
      const ids = deposits.flatMap((d) => (d.bankTransactionId ? [d.bankTransactionId] : []));
      const bank = ids.length ? await w.em.createQueryBuilder(BankTransactionEntity).select(['id', 'amount']).where({ id: { $in: ids } }).execute<BankTransactionEntity[]>('all', true) : [];
      const amount = new Map(bank.map((b) => [b.id, b.amount]));
      const rows = deposits.map((d) => ({ ...d, bankAmount: d.bankTransactionId ? (amount.get(d.bankTransactionId) ?? null) : null })) as unknown as DepositRow[];
      return toPage(rows, n, depositDto);
    },
  },
  {
    name: 'cash.list-bank-transactions',
    what: 'GET /cash/bank-transactions, a page of 50 (each line with its deposit) among a year of 20 locations',
    service: benchCash,
    seed: seedStore,
    raw: (w) => listBankTransactions(w, { limit: 50, from: '2026-06-01' }),
    async orm(w) {
      const n = pageLimit(50);
      const bank = await w.em
        .createQueryBuilder(BankTransactionEntity)
        .select('*')
        .where({ bookedOn: { $gte: '2026-06-01' } })
        .orderBy({ id: 'asc' })
        .limit(n + 1)
        .execute<BankTransactionEntity[]>('all', true);
      const deposits = bank.length ? await w.em.createQueryBuilder(DepositEntity).select(['id', 'bankTransactionId']).where({ bankTransactionId: { $in: bank.map((b) => b.id) } }).execute<DepositEntity[]>('all', true) : [];
      const of = new Map(deposits.map((d) => [d.bankTransactionId!, d.id]));
      const rows = bank.map((b) => ({ ...b, depositId: of.get(b.id) ?? null })) as unknown as BankRow[];
      return toPage(rows, n, bankTransactionDto);
    },
  },
];

/** 60 (location, day) pairs of known days, closed and open */
const OLD_DAYS: DayRef[] = Array.from({ length: 30 }, (_, i) => loc(i * 6)).flatMap((locationId) => ['2026-10-31', '2026-11-01'].map((businessDay) => ({ locationId, businessDay })));

async function lateStatuses(w: Work) {
  const sales = await w.em.count(SalesTransactionEntity, { locationId: L0, lateReview: { status: 'applied' } } as never);
  const totals = await w.em.count(TenderTotalEntity, { locationId: L0, lateReview: { status: 'applied' } } as never);
  const payouts = await w.em.count(SettlementEntity, { locationId: L0, lateReview: { status: 'applied' } } as never);
  return { sales, totals, payouts };
}

async function tendersState(w: Work) {
  const sums = await w.em
    .createQueryBuilder(ExpectedSalesEntity)
    .select(['businessDay', 'drawerKey', 'tenderType', 'platformKey', 'amount', 'tenders'])
    .where({ locationId: L0, businessDay: { $in: ['2026-11-27', '2026-11-28'] } })
    .orderBy({ businessDay: 'asc', drawerKey: 'asc', tenderType: 'asc', platformKey: 'asc' })
    .execute<ExpectedSalesEntity[]>('all', true);
  const stored = await w.em.count(SalesTransactionEntity, { locationId: L0, version: 2 });
  return { sums: sums.map((s) => ({ ...s, amount: new Decimal(s.amount).toFixed(2) })), stored };
}
