import type { ExpectedAmount } from '@bop/contracts';
import { LockMode } from '@mikro-orm/core';
import { fmtAmount, type Principal, type Work } from '@bop/shared';
import { dayKey, type DayRef } from '../days/lock';
import { closedDays } from '../days/lock-store';
import { expectedAmounts } from '../expected/store';
import { SETTLEMENT_MISMATCH, settlementDto, settlementRowOf, type SettlementRow } from './dto';
import { SettlementEntity } from './entities';
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

const coveredDays = (s: { locationId: string; businessDays: string[] }): DayRef[] => s.businessDays.map((d) => ({ locationId: s.locationId, businessDay: d }));

/**
 * Re-matches the payouts covering these days after their expected tenders changed (sales, tender
 * totals, a reopened day): expected gross, difference, status — and `cash.settlement_mismatch` when one
 * turns mismatched or its difference moves. A payout covering a closed day is left as it is: the
 * day's figures are locked (reopening the day calls this again). The events are the unit's actor's
 * unless `opts.actor` says otherwise.
 */
export async function rematchSettlements(w: Work, days: DayRef[], opts: { actor?: Principal } = {}): Promise<void> {
  if (days.length === 0) return;
  const { em, now } = w;
  // the payouts covering any of the pairs, then those with a closed day among theirs left out
  const wanted = new Set(days.map(dayKey));
  const covering = await em
    .createQueryBuilder(SettlementEntity)
    .select(['id', 'locationId', 'businessDays'])
    .where({ locationId: { $in: [...new Set(days.map((d) => d.locationId))] }, businessDays: { $hasSomeKeys: [...new Set(days.map((d) => d.businessDay))] } })
    .execute<Array<Pick<SettlementEntity, 'id' | 'locationId' | 'businessDays'>>>('all', true);
  const hits = covering.filter((s) => coveredDays(s).some((d) => wanted.has(dayKey(d))));
  if (hits.length === 0) return;
  const shut = await closedDays(w, hits.flatMap(coveredDays));
  const candidates = hits.filter((s) => !coveredDays(s).some((d) => shut.has(dayKey(d)))).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (candidates.length === 0) return;
  // key-share locks on their days first (the order a close or reopen takes): a concurrent close waits for this re-match, or this sees the day closed
  const closed = await closedDays(w, candidates.flatMap(coveredDays), { lock: true });
  const open = candidates.filter((c) => !coveredDays(c).some((d) => closed.has(dayKey(d))));
  if (open.length === 0) return;
  // the payouts locked in id order (read afresh under the lock), changed in code and flushed
  const rows = await em.find(SettlementEntity, { id: { $in: open.map((c) => c.id) } }, { orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  const expected = await expectedOf(w, rows.map((r) => ({ locationId: r.locationId, businessDays: r.businessDays })));
  const raised: SettlementEntity[] = [];
  for (const r of rows) {
    const m = matchSettlement({ kind: r.kind as SettlementRow['kind'], platform: r.platform ?? null, tenderTypes: r.tenderTypes, businessDays: r.businessDays, gross: r.gross }, expected.get(r.locationId) ?? new Map());
    const moved = m.difference !== fmtAmount(r.difference) || m.matchStatus !== r.matchStatus;
    if (!moved && m.expectedGross === fmtAmount(r.expectedGross)) continue;
    // the row is locked: its version + 1 is the stored version + 1
    Object.assign(r, { expectedGross: m.expectedGross, difference: m.difference, matchStatus: m.matchStatus, matchedAt: now, version: r.version + 1, updatedAt: now });
    if (m.matchStatus === 'mismatched' && moved) raised.push(r);
  }
  await em.flush();
  for (const r of raised) w.emit({ type: SETTLEMENT_MISMATCH, aggregateType: 'settlement', aggregateId: r.id, locationId: r.locationId, object: settlementDto(settlementRowOf(r)) }, opts.actor ? { actor: opts.actor } : undefined);
}
