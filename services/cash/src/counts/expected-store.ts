import Decimal from 'decimal.js';
import { findPlain, type Work } from '@bop/shared';
import { CashCountEntity } from './entities';
import { DepositEntity } from '../deposits/entities';
import { expectedDrawerCash } from '../expected/store';
import { drawerExpectation, safeExpectation, type Expectation, type Tally } from './expected';

/** the sum (exact, in Decimal) and number of these rows' amounts (the decimal text the ORM reads) */
const tally = (rows: Array<{ amount: Decimal.Value }>): Tally => ({ total: rows.reduce<Decimal>((sum, r) => sum.plus(r.amount), new Decimal(0)), count: rows.length });

/** A drawer count's expectation: its day's cash tenders and the skims of that drawer and day counted at or before `countedAt`. */
export async function drawerExpected(w: Work, c: { locationId: string; businessDay: string; drawerId: string; countedAt: Date; openingFloat: Decimal }): Promise<Expectation> {
  const cashTenders = await expectedDrawerCash(w, c.locationId, c.businessDay, c.drawerId);
  const skims = await w.em
    .createQueryBuilder(CashCountEntity)
    .select(['amount'])
    .where({ locationId: c.locationId, businessDay: c.businessDay, type: 'skim', drawerId: c.drawerId, countedAt: { $lte: c.countedAt } })
    .execute<Array<{ amount: string }>>('all', true);
  return drawerExpectation({ drawerId: c.drawerId, businessDay: c.businessDay, openingFloat: c.openingFloat, cashTenders, skims: tally(skims) });
}

/** A safe count's expectation: everything in (last safe count at or before `countedAt`, `countedAt`]. */
export async function safeExpected(w: Work, c: { locationId: string; countedAt: Date }): Promise<Expectation> {
  const { em } = w;
  const [prev] = await findPlain(em, CashCountEntity, { locationId: c.locationId, type: 'safe', countedAt: { $lte: c.countedAt } }, { orderBy: { countedAt: 'desc', id: 'desc' }, limit: 1 });
  const from = prev ? new Date(prev.countedAt) : null;
  const since = from ? { $gt: from, $lte: c.countedAt } : { $lte: c.countedAt };
  const counts = await em
    .createQueryBuilder(CashCountEntity)
    .select(['type', 'amount', 'openingFloat'])
    .where({ locationId: c.locationId, type: { $in: ['skim', 'drawer'] }, countedAt: since })
    .execute<Array<{ type: string; amount: string; openingFloat: string | null }>>('all', true);
  const deposits = await em.createQueryBuilder(DepositEntity).select(['amount']).where({ locationId: c.locationId, depositedAt: since }).execute<Array<{ amount: string }>>('all', true);
  return safeExpectation({
    previous: prev ? { id: prev.id, amount: new Decimal(prev.amount), countedAt: from! } : null,
    skims: tally(counts.filter((r) => r.type === 'skim')),
    drawerDrops: tally(counts.filter((r) => r.type === 'drawer').map((r) => ({ amount: new Decimal(r.amount).minus(r.openingFloat ?? 0) }))),
    deposits: tally(deposits),
  });
}
