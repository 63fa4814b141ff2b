import Decimal from 'decimal.js';
import { findPlain, sqlQuery, type Work } from '@bop/shared';
import { CashCountEntity } from './entities';
import { expectedDrawerCash } from '../expected/store';
import { drawerExpectation, safeExpectation, type Expectation, type Tally } from './expected';

interface TallyRow {
  total: string;
  count: string;
}
const tally = (r: TallyRow | undefined): Tally => ({ total: new Decimal(r?.total ?? 0), count: Number(r?.count ?? 0) });

/** A drawer count's expectation: its day's cash tenders and the skims of that drawer and day counted at or before `countedAt`. */
export async function drawerExpected(w: Work, c: { locationId: string; businessDay: string; drawerId: string; countedAt: Date; openingFloat: Decimal }): Promise<Expectation> {
  const cashTenders = await expectedDrawerCash(w, c.locationId, c.businessDay, c.drawerId);
  // raw SQL: an aggregation (sum and count as exact numeric text), which the ORM does not express cleanly
  const [skims] = await sqlQuery<TallyRow>(
    w.em,
    `select coalesce(sum("amount"), 0)::text as "total", count(*)::text as "count" from "${w.schema}"."counts"
     where "location_id" = ? and "business_day" = ?::date and "type" = 'skim' and "drawer_id" = ? and "counted_at" <= ?`,
    [c.locationId, c.businessDay, c.drawerId, c.countedAt],
  );
  return drawerExpectation({ drawerId: c.drawerId, businessDay: c.businessDay, openingFloat: c.openingFloat, cashTenders, skims: tally(skims) });
}

/** A safe count's expectation: everything in (last safe count at or before `countedAt`, `countedAt`]. */
export async function safeExpected(w: Work, c: { locationId: string; countedAt: Date }): Promise<Expectation> {
  const { em } = w;
  const [prev] = await findPlain(em, CashCountEntity, { locationId: c.locationId, type: 'safe', countedAt: { $lte: c.countedAt } }, { orderBy: { countedAt: 'desc', id: 'desc' }, limit: 1 });
  const from = prev ? new Date(prev.countedAt) : null;
  // raw SQL, the two sums below: aggregations (filtered sums and counts as exact numeric text), which the ORM does not express cleanly
  const [counts] = await sqlQuery<{ skims: string; skim_count: string; drops: string; drop_count: string }>(
    em,
    `select coalesce(sum("amount") filter (where "type" = 'skim'), 0)::text as "skims", count(*) filter (where "type" = 'skim')::text as "skim_count",
       coalesce(sum("amount" - coalesce("opening_float", 0)) filter (where "type" = 'drawer'), 0)::text as "drops", count(*) filter (where "type" = 'drawer')::text as "drop_count"
     from "${w.schema}"."counts"
     where "location_id" = ? and "type" in ('skim', 'drawer') and "counted_at" > coalesce(?::timestamptz, '-infinity') and "counted_at" <= ?`,
    [c.locationId, from, c.countedAt],
  );
  const [deposits] = await sqlQuery<TallyRow>(
    em,
    `select coalesce(sum("amount"), 0)::text as "total", count(*)::text as "count" from "${w.schema}"."deposits"
     where "location_id" = ? and "deposited_at" > coalesce(?::timestamptz, '-infinity') and "deposited_at" <= ?`,
    [c.locationId, from, c.countedAt],
  );
  return safeExpectation({
    previous: prev ? { id: prev.id, amount: new Decimal(prev.amount), countedAt: from! } : null,
    skims: tally({ total: counts.skims, count: counts.skim_count }),
    drawerDrops: tally({ total: counts.drops, count: counts.drop_count }),
    deposits: tally(deposits),
  });
}
