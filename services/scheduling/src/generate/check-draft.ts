import { HOUR_MS, isoOf, parseInstant } from './clock';
import { prepareDraft, type Span } from './prepare';
import type { DraftInput, DraftShift } from './types';

/**
 * Every rule a drafted schedule breaks, in words; empty when it keeps them all. Checks the shifts
 * themselves, not the model that produced them: position held, inside availability, length and start
 * grid, no start before now, no overlap, rest between shifts (those outside the draft included), one
 * shift a day, and the weekly hours when overtime is not allowed.
 */
export function draftRuleViolations(input: DraftInput, shifts: DraftShift[]): string[] {
  const p = prepareDraft(input);
  const out: string[] = [];
  const byId = new Map(p.workers.map((w) => [w.id, w]));
  const perWorker = new Map<string, Span[]>();
  const weekHours = new Map<string, number>();
  const eps = 1e-6;
  for (const s of shifts) {
    const w = byId.get(s.employeeId);
    const label = `${s.employeeId} ${s.start}–${s.end}`;
    if (!w) {
      out.push(`${label}: not a candidate`);
      continue;
    }
    const span = { start: parseInstant(s.start, 'shift start'), end: parseInstant(s.end, 'shift end') };
    const hours = (span.end - span.start) / HOUR_MS;
    if (!w.positions.includes(s.positionId)) out.push(`${label}: ${w.name} does not hold ${s.positionId}`);
    if (!w.windows.some((win) => win.start <= span.start && span.end <= win.end)) out.push(`${label}: outside ${w.name}'s availability`);
    if (Math.abs(hours - s.hours) > eps) out.push(`${label}: says ${s.hours} h, lasts ${hours} h`);
    if (hours * HOUR_MS < p.minMs - eps || hours * HOUR_MS > p.maxMs + eps) out.push(`${label}: ${hours} h is outside the allowed shift length`);
    if (p.minuteOf(span.start) % p.stepMinutes !== 0 || Math.round(hours * 60) % p.stepMinutes !== 0) out.push(`${label}: off the ${p.stepMinutes}-minute grid`);
    if (p.now !== null && span.start < p.now) out.push(`${label}: starts before now`);
    perWorker.set(w.id, [...(perWorker.get(w.id) ?? []), span]);
    const week = `${w.id}\u0000${p.weekOf(p.dayOf(span.start))}`;
    weekHours.set(week, (weekHours.get(week) ?? 0) + hours);
  }
  for (const [id, drafted] of perWorker) {
    const w = byId.get(id)!;
    const all = [...drafted, ...w.otherShifts].sort((a, b) => a.start - b.start);
    for (let i = 1; i < all.length; i++) {
      const gap = all[i].start - all[i - 1].end;
      if (gap < 0) out.push(`${w.name}: shifts overlap at ${isoOf(all[i].start)}`);
      else if (gap < p.restMs) out.push(`${w.name}: ${gap / HOUR_MS} h rest before ${isoOf(all[i].start)}`);
    }
    const days = all.map((s) => p.dayOf(s.start));
    const twice = days.filter((d, i) => days.indexOf(d) !== i);
    for (const d of new Set(twice)) out.push(`${w.name}: more than one shift on ${d}`);
  }
  if (!p.allowOvertime) {
    for (const [key, hours] of weekHours) {
      const [id, week] = key.split('\u0000');
      const w = byId.get(id)!;
      const total = hours + w.alreadyIn(week);
      if (total > p.weeklyCap + eps) out.push(`${w.name}: ${total} h in the workweek of ${week}, past ${p.weeklyCap} h`);
    }
  }
  return out;
}
