import type { z } from 'zod';
import type { DisplayMetricListQuery, DisplayMetricsPush } from '@bop/contracts';
import { ValidationError, assertLocationInReach, findPage, locationFilter, mapPage, newId, writableLocations, type Work } from '@bop/shared';
import { DisplayMetric } from './entities';
import { displayMetricDto } from './dto';

/**
 * `POST /display-metrics`: the latest value of each named number at a location. A push measured
 * earlier than the value held (a late or re-sent push) keeps the newer value.
 */
export async function pushDisplayMetrics(w: Work, body: z.output<typeof DisplayMetricsPush>) {
  assertLocationInReach(w.reach(), body.locationId);
  const { errors } = await writableLocations(w, [{ id: body.locationId, path: 'locationId', takes: 'display metrics' }]);
  if (errors.length > 0) throw new ValidationError(errors);
  // names under `insights.` are the KPIs insights feeds (display-feed): a push may not overwrite them
  const reserved = body.metrics.flatMap((m, i) => (m.name.startsWith(INSIGHTS_PREFIX) ? [{ path: `metrics.${i}.name`, message: `Names starting with "${INSIGHTS_PREFIX}" are the KPIs insights sends; choose another name.` }] : []));
  if (reserved.length > 0) throw new ValidationError(reserved);
  const { data, changed } = await storeDisplayMetrics(w, body.locationId, body.metrics, body.measuredAt ? new Date(body.measuredAt) : w.now, w.actor.integrationId ?? null);
  // the project's own public type (issue 41 item 3), for a push (the KPIs insights feeds are insights' figures): each metric whose latest value changed
  for (const m of changed) w.emit({ type: 'display_metric.updated', aggregateType: 'display_metric', aggregateId: m.id, locationId: m.locationId, object: displayMetricDto(m) });
  return { data };
}

/** The prefix of the display metrics insights feeds from its KPIs (`insights.display_kpis.updated`). */
export const INSIGHTS_PREFIX = 'insights.';

/**
 * Stores the latest value of each named metric at a location (a value measured earlier than the one
 * held keeps the newer), and tells the location's team displays (`communication.display_metrics.pushed`).
 * `source`: the integration that pushed them, or `insights` for the KPIs it feeds. Answers every metric
 * named (`data`) and those whose value changed (new, or a newer push with other content).
 */
export async function storeDisplayMetrics(w: Work, locationId: string, metrics: ReadonlyArray<{ name: string; value: string; unit?: string | null; label?: string | null }>, measuredAt: Date, source: string | null) {
  const held = new Map((await w.em.find(DisplayMetric, { locationId, name: { $in: metrics.map((m) => m.name) } })).map((m) => [m.name, m]));
  const changed = new Set<DisplayMetric>();
  const latest = metrics.map((m) => {
    const row = held.get(m.name);
    const values = { value: m.value, unit: m.unit ?? null, label: m.label ?? null, measuredAt, updatedAt: w.now, source };
    if (!row) {
      const created = w.em.create(DisplayMetric, { id: newId('displayMetric'), locationId, name: m.name, ...values });
      changed.add(created);
      return created;
    }
    if (row.measuredAt.getTime() <= measuredAt.getTime()) {
      const differs = row.value !== values.value || (row.unit ?? null) !== values.unit || (row.label ?? null) !== values.label || row.measuredAt.getTime() !== measuredAt.getTime() || (row.source ?? null) !== source;
      Object.assign(row, values);
      if (differs) changed.add(row);
    }
    return row;
  });
  await w.em.flush();
  const data = latest.map(displayMetricDto);

  // internal: team displays of the location show the new numbers
  w.emit({ type: 'communication.display_metrics.pushed', aggregateType: 'location', aggregateId: locationId, locationId, object: { locationId, metrics: data } });
  return { data, changed: [...changed] };
}

/** `GET /display-metrics`: the latest value of each metric, by location and name. */
export async function listDisplayMetrics(w: Work, query: z.output<typeof DisplayMetricListQuery>) {
  const inLocations = locationFilter(w.reach(), query.locationId);
  return mapPage(await findPage(w.em, DisplayMetric, [inLocations && { locationId: inLocations }, query.name && { name: query.name }], { limit: query.limit, cursor: query.cursor, updatedSince: query.updatedSince }), displayMetricDto);
}
