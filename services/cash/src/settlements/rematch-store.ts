import type { ExpectedAmount } from '@bop/contracts';
import { fmtAmount, sqlList, sqlQuery, type Principal, type Work } from '@bop/shared';
import { dayKey, type DayRef } from '../days/lock';
import { closedDays } from '../days/lock-store';
import { expectedAmounts } from '../expected/store';
import { SETTLEMENT_MISMATCH, settlementColumns, settlementDto, type SettlementRow } from './dto';
import { matchSettlement } from './match';

/** The expected amounts of every location and day these payouts cover (one expectedAmounts per location, for the union of its days). */
export async function expectedOf(w: Work, covering: Array<{ locationId: string; businessDays: string[] }>): Promise<Map<string, Map<string, ExpectedAmount[]>>> {
  const daysOf = new Map<string, Set<string>>();
  for (const c of covering) {
    const days = daysOf.get(c.locationId) ?? new Set<string>();
    for (const d of c.businessDays) days.add(d);
    daysOf.set(c.locationId, days);
  }
  const out = new Map<string, Map<string, ExpectedAmount[]>>();
  for (const [locationId, days] of daysOf) out.set(locationId, await expectedAmounts(w, locationId, [...days].sort()));
  return out;
}

const pairs = (days: DayRef[]) => JSON.stringify([...new Map(days.map((d) => [dayKey(d), [d.locationId, d.businessDay]])).values()]);
const coveredDays = (s: { location_id: string; business_days: string[] }): DayRef[] => s.business_days.map((d) => ({ locationId: s.location_id, businessDay: d }));

/**
 * Re-matches the payouts covering these days after their expected tenders changed (sales, tender
 * totals, a reopened day): expected gross, difference, status — and `cash.settlement_mismatch` when one
 * turns mismatched or its difference moves. A payout covering a closed day is left as it is: the
 * day's figures are locked (reopening the day calls this again). The events are the unit's actor's
 * unless `opts.actor` says otherwise.
 */
export async function rematchSettlements(w: Work, days: DayRef[], opts: { actor?: Principal } = {}): Promise<void> {
  if (days.length === 0) return;
  const { em, schema, now } = w;
  // raw SQL: the payouts covering any of many (location, day) pairs and none of them closed, in one statement (jsonb containment and a not-exists over the jsonb days), on the path of every sale (the expected-tenders consumer)
  const candidates = await sqlQuery<{ id: string; location_id: string; business_days: string[] }>(
    em,
    `with d as (select distinct x->>0 as "location_id", x->>1 as "business_day" from jsonb_array_elements(?::jsonb) as x)
     select s."id", s."location_id", s."business_days" from "${schema}"."settlements" s
     where s."id" in (select c."id" from d join "${schema}"."settlements" c on c."location_id" = d."location_id" and c."business_days" @> jsonb_build_array(d."business_day"))
       and not exists (select 1 from jsonb_array_elements_text(s."business_days") as b("day")
                       join "${schema}"."business_days" bd on bd."location_id" = s."location_id" and bd."business_day" = b."day"::date
                       where bd."status" = 'closed')
     order by s."id"`,
    [pairs(days)],
  );
  if (candidates.length === 0) return;
  // key-share locks on their days first (the order a close or reopen takes): a concurrent close waits for this re-match, or this sees the day closed
  const closed = await closedDays(w, candidates.flatMap(coveredDays), { lock: true });
  const open = candidates.filter((c) => !coveredDays(c).some((d) => closed.has(dayKey(d))));
  if (open.length === 0) return;
  // raw SQL: locks the payouts in id order in the row shape the set-based update below returns, on the path of every sale
  const rows = await sqlQuery<SettlementRow>(
    em,
    `select ${settlementColumns} from "${schema}"."settlements" s where s."id" = any(?::text[]) order by s."id" for update`,
    [sqlList(open.map((c) => c.id))],
  );
  const expected = await expectedOf(w, rows.map((r) => ({ locationId: r.location_id, businessDays: r.business_days })));
  const changes = rows.flatMap((r) => {
    const m = matchSettlement({ kind: r.kind, platform: r.platform, tenderTypes: r.tender_types, businessDays: r.business_days, gross: r.gross }, expected.get(r.location_id) ?? new Map());
    const moved = m.difference !== fmtAmount(r.difference) || m.matchStatus !== r.match_status;
    if (!moved && m.expectedGross === fmtAmount(r.expected_gross)) return [];
    return [{ id: r.id, match: m, raise: m.matchStatus === 'mismatched' && moved }];
  });
  if (changes.length === 0) return;
  // raw SQL: a set-based update of every changed payout in one statement (update … from jsonb_array_elements … returning)
  const updated = await sqlQuery<SettlementRow>(
    em,
    `update "${schema}"."settlements" as s set "expected_gross" = (x->>1)::numeric, "difference" = (x->>2)::numeric, "match_status" = x->>3,
       "matched_at" = ?, "version" = s."version" + 1, "updated_at" = ?
     from jsonb_array_elements(?::jsonb) as x where s."id" = x->>0
     returning ${settlementColumns}`,
    [now, now, JSON.stringify(changes.map((c) => [c.id, c.match.expectedGross, c.match.difference, c.match.matchStatus]))],
  );
  const raise = new Set(changes.filter((c) => c.raise).map((c) => c.id));
  const events = updated
    .filter((r) => raise.has(r.id))
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((r) => ({ type: SETTLEMENT_MISMATCH, aggregateType: 'settlement', aggregateId: r.id, locationId: r.location_id, object: settlementDto(r) }));
  for (const event of events) w.emit(event, opts.actor ? { actor: opts.actor } : undefined);
}
