import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import type { Recommendation as RecommendationDto, RecommendationKind } from '@bop/contracts';
import { businessDayOf, findPage, findPlain, mapPage, newId, reachableLocationIds, type ListPage, type Work } from '@bop/shared';
import { ensureWithinReach } from '../locations/reach-store';
import { InsightsLocation } from '../locations/entities';
import { StockItem, StockOnHand } from '../stock/entities';
import { usageSums } from '../stock/report-store';
import { USED } from '../stock/usage';
import { OpenOrder, PurchasePrice } from '../purchases/entities';
import { dayOf } from '../kpis/store';
import { Recommendation } from './entities';
import { largestVariances, priceRise, reorder, staffing, type Found, type RuleSettings } from './rules';
import { ScheduledShift } from '../schedule/entities';
import { forecastDays, NET_SALES } from '../forecasts/store';

/** Orders still to arrive: approved, sent or partly received (a draft is no order yet). */
const OPEN = ['approved', 'sent', 'partially_received'];

export function recommendationDto(r: Recommendation): RecommendationDto {
  return {
    id: r.id,
    kind: r.kind as RecommendationKind,
    status: r.status as RecommendationDto['status'],
    locationId: r.locationId,
    itemId: r.itemId ?? null,
    supplierId: r.supplierId ?? null,
    reasoning: r.reasoning,
    figures: r.figures,
    createdAt: new Date(r.createdAt).toISOString(),
    resolvedAt: r.resolvedAt ? new Date(r.resolvedAt).toISOString() : null,
  };
}

/** The locations the engine works for (not archived), in id order. */
export async function recommendationLocations(w: Work): Promise<string[]> {
  const rows = await findPlain(w.em, InsightsLocation, { status: { $ne: 'archived' } }, { orderBy: { id: 'asc' } });
  return rows.map((r) => r.id);
}

/** What the rules find at a location now (its business day from `w.now`, the usage window the complete days before it). */
export async function findAt(w: Work, locationId: string, s: RuleSettings): Promise<Found[]> {
  const [location] = await findPlain(w.em, InsightsLocation, { id: locationId });
  if (!location) return [];
  const today = businessDayOf(w.now.toISOString(), location.timezone, location.businessDayCutoff);
  const day = DateTime.fromISO(today, { zone: 'UTC' });
  const window = { from: day.minus({ days: s.usageDays }).toISODate()!, to: day.minus({ days: 1 }).toISODate()! };
  const sums = await usageSums(w, { locationIds: [locationId], ...window });
  const levels = await findPlain(w.em, StockOnHand, { locationId });
  const orders = await findPlain(w.em, OpenOrder, { locationId, status: { $in: OPEN }, expectedDeliveryDate: { $gte: today } });
  const prices = await findPlain(w.em, PurchasePrice, { locationId }, { orderBy: { receivedAt: 'asc', id: 'asc' } });
  const itemIds = [...new Set([...levels.map((l) => l.itemId), ...[...sums.values()].map((x) => x.itemId), ...prices.map((p) => p.itemId)])];
  const names = new Map((itemIds.length ? await findPlain(w.em, StockItem, { id: { $in: itemIds } }) : []).map((i) => [i.id, i.name]));

  const found: Found[] = [];
  for (const l of levels) {
    const u = sums.get(`${locationId}|${l.itemId}`);
    const used = u ? [...USED].reduce((t, f) => t.plus(u.q[f]), new Decimal(0)) : new Decimal(0);
    const next = orders
      .filter((o) => o.expectedDeliveryDate && new Decimal(o.outstanding[l.itemId] ?? 0).gt(0))
      .map((o) => ({ date: dayOf(o.expectedDeliveryDate!), orderId: o.id }))
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.orderId < b.orderId ? -1 : 1))[0];
    const r = reorder(s, today, { locationId, itemId: l.itemId, itemName: names.get(l.itemId) ?? null, onHand: l.onHand, used, nextDelivery: next ?? null });
    if (r) found.push(r);
  }
  const bySupplierItem = new Map<string, typeof prices>();
  for (const p of prices) bySupplierItem.set(`${p.supplierId}|${p.itemId}`, [...(bySupplierItem.get(`${p.supplierId}|${p.itemId}`) ?? []), p]);
  for (const g of bySupplierItem.values()) {
    if (g.length < 2) continue;
    const [previous, last] = g.slice(-2);
    const at = (p: (typeof g)[number]) => ({ unitCost: p.unitCost, receiptId: p.receiptId, day: p.businessDay ? dayOf(p.businessDay) : new Date(p.receivedAt).toISOString().slice(0, 10) });
    const r = priceRise(s, { locationId, supplierId: last.supplierId, itemId: last.itemId, itemName: names.get(last.itemId) ?? null, previous: at(previous), last: at(last) });
    if (r) found.push(r);
  }
  found.push(
    ...largestVariances(
      s,
      window,
      [...sums.values()].map((x) => ({
        locationId,
        itemId: x.itemId,
        itemName: names.get(x.itemId) ?? null,
        theoreticalCost: x.v.sale,
        actualCost: [...USED].reduce((t, f) => t.plus(x.v[f]), new Decimal(0)),
      })),
    ),
  );
  found.push(...(await staffingAt(w, locationId, location.timezone, today, s)));
  return found;
}

/** Staffing against the forecast for the `staffingDays` business days from today (see `staffing`). */
async function staffingAt(w: Work, locationId: string, zone: string, today: string, s: RuleSettings): Promise<Found[]> {
  if (!s.targetSplh) return [];
  const last = DateTime.fromISO(today, { zone: 'UTC' }).plus({ days: (s.staffingDays ?? 7) - 1 }).toISODate()!;
  const forecasts = await forecastDays(w, NET_SALES, [locationId], today, last);
  if (forecasts.size === 0) return [];
  const shifts = await findPlain(w.em, ScheduledShift, { locationId, status: 'published', businessDay: { $gte: today, $lte: last } });
  const found: Found[] = [];
  for (const f of forecasts.values()) {
    const day = shifts.filter((x) => dayOf(x.businessDay) === f.businessDay).map((x) => ({ startsAt: x.startsAt ? new Date(x.startsAt) : null, endsAt: x.endsAt ? new Date(x.endsAt) : null, paidHours: x.paidHours }));
    const r = staffing(s, { locationId, day: f.businessDay, zone, forecast: f, shifts: day });
    if (r) found.push(r);
  }
  return found;
}

/**
 * Brings a location's open recommendations in line with what the rules find now: a situation newly
 * found is recommended once (`recommendation.created`); one still found stays open (not created
 * twice), its reasoning and figures brought up to date; an open one no longer found is resolved. Answers how many were created and resolved.
 */
export async function syncLocation(w: Work, locationId: string, s: RuleSettings): Promise<{ created: number; resolved: number }> {
  const found = await findAt(w, locationId, s);
  const open = await w.em.find(Recommendation, { locationId, status: 'open' });
  const openByKey = new Map(open.map((r) => [r.key, r]));
  const foundKeys = new Set(found.map((f) => f.key));
  let created = 0;
  for (const f of found) {
    const held = openByKey.get(f.key);
    if (held) {
      // the same situation: kept (no second one, no new event), with today's reasoning and figures
      if (held.reasoning !== f.reasoning || JSON.stringify(held.figures) !== JSON.stringify(f.figures)) Object.assign(held, { reasoning: f.reasoning, figures: f.figures, updatedAt: w.now });
      continue;
    }
    const r = w.em.create(Recommendation, { id: newId('recommendation'), key: f.key, kind: f.kind, locationId: f.locationId, itemId: f.itemId, supplierId: f.supplierId, status: 'open', reasoning: f.reasoning, figures: f.figures, createdAt: w.now, updatedAt: w.now, resolvedAt: null });
    w.emit({ type: 'recommendation.created', aggregateType: 'recommendation', aggregateId: r.id, locationId: r.locationId, object: recommendationDto(r) });
    created += 1;
  }
  let resolved = 0;
  for (const r of open) {
    if (foundKeys.has(r.key)) continue;
    r.status = 'resolved';
    r.resolvedAt = w.now;
    r.updatedAt = w.now;
    resolved += 1;
  }
  await w.em.flush();
  return { created, resolved };
}

/**
 * `GET /recommendations`: within the caller's reach (a location named outside it: 403), open ones
 * unless `status` says otherwise, oldest first, cursor pages.
 */
export async function listRecommendations(w: Work, q: { locationId?: string; kind?: string; status?: string; cursor?: string; limit?: number; updatedSince?: string }): Promise<ListPage<RecommendationDto>> {
  if (q.locationId) ensureWithinReach(w, [q.locationId]);
  const reachable = reachableLocationIds(w.reach());
  const page = await findPage(
    w.em,
    Recommendation,
    [{ status: q.status ?? 'open' }, q.kind && { kind: q.kind }, q.locationId && { locationId: q.locationId }, reachable && { locationId: { $in: reachable } }],
    q,
  );
  return mapPage(page, recommendationDto);
}
