import { DateTime } from 'luxon';
import { forecastDemand, rankSimilar, type DemandPoint, type ForecastInput, type PeerHistory, type SpecialDay } from '../src/forecasts/model';

const SLOT_MS = 15 * 60_000;

/** 15-minute points of the local days first..last; `value` null leaves the interval out */
function series(zone: string, first: string, last: string, value: (local: DateTime) => number | null): DemandPoint[] {
  const points: DemandPoint[] = [];
  const end = DateTime.fromISO(last, { zone }).plus({ days: 1 }).toMillis();
  for (let ms = DateTime.fromISO(first, { zone }).toMillis(); ms < end; ms += SLOT_MS) {
    const v = value(DateTime.fromMillis(ms, { zone }));
    if (v !== null) points.push({ start: new Date(ms).toISOString(), value: v });
  }
  return points;
}

const near = (actual: number, expected: number, relative: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(relative * Math.abs(expected) + 1e-9);
const zone = 'Europe/Paris';
// a café: mornings, closed on Sundays; a dinner place: evenings, open every day, busier on Saturdays
const cafe = (scale: number) => (l: DateTime) => (l.weekday === 7 ? null : l.hour >= 7 && l.hour < 12 ? 12 * scale : l.hour >= 12 && l.hour < 15 ? 4 * scale : null);
const dinner = (scale: number) => (l: DateTime) => (l.hour >= 18 && l.hour < 23 ? (l.weekday === 6 ? 20 : 10) * scale : null);

describe('cold start: a location with fewer than 8 weeks', () => {
  const peers: PeerHistory[] = [
    { locationId: 'loc_cafe', zone, history: series(zone, '2025-01-06', '2025-03-16', cafe(1)) },
    { locationId: 'loc_dinner', zone: 'America/New_York', history: series('America/New_York', '2025-01-06', '2025-03-16', dinner(1)) },
    // too little history of its own to lend it
    { locationId: 'loc_young', zone, history: series(zone, '2025-03-03', '2025-03-16', cafe(1)) },
  ];

  it('from its first days: the nearest locations over the days it has, scaled to its level (method similar_locations)', () => {
    // a café at half the level, open for four days (Thursday to Sunday: it has not seen a Sunday open)
    const input: ForecastInput = { history: series(zone, '2025-03-13', '2025-03-16', cafe(0.5)), zone, from: '2025-03-17', to: '2025-03-23', peers };
    expect(rankSimilar(input, peers).map((p) => p.locationId)).toEqual(['loc_cafe', 'loc_young', 'loc_dinner']);
    const result = forecastDemand(input);
    expect([result.method, result.daysOfHistory, result.confidence]).toEqual(['similar_locations', 4, { level: 'low', expectedErrorPercent: 37.6 }]);
    const [first, second] = result.similarLocations!;
    expect(first).toMatchObject({ locationId: 'loc_cafe' });
    near(first.scale, 0.5, 1e-6);
    expect(first.weight).toBeGreaterThan(0.9);
    expect(second.locationId).toBe('loc_dinner');
    // Monday..Saturday at half the café's 5 × 4 × 12 + 3 × 4 × 4 = 288, and closed on Sunday as the café is
    result.days.slice(0, 6).forEach((d) => near(d.total, 144, 0.02));
    expect(result.days[6].total).toBe(0);
    const monday = result.points.slice(0, 96);
    const at = (hour: number) => monday[DateTime.fromObject({ hour }, { zone }).set({ year: 2025, month: 3, day: 17 }).diff(DateTime.fromISO('2025-03-17', { zone }), 'minutes').minutes / 15].value;
    // the hours: the café's, with the dinner place's small share in the evening
    near(at(8), 6 * first.weight, 0.02);
    near(at(20), 144 * second.weight / 20, 0.05);
  });

  it('its own profile when no location with 8 weeks shares a day with it', () => {
    const input: ForecastInput = { history: series(zone, '2025-03-13', '2025-03-16', cafe(0.5)), zone, from: '2025-03-17', to: '2025-03-23', peers: [peers[2]] };
    const result = forecastDemand(input);
    expect([result.method, result.similarLocations]).toEqual(['own_profile', undefined]);
    near(result.days[0].total, 144, 1e-6);
  });
});

describe('special days per location', () => {
  const company: SpecialDay[] = [
    { date: '2024-12-31', kind: 'lift', name: "New Year's Eve" },
    { date: '2025-12-31', kind: 'lift', name: "New Year's Eve" },
  ];
  const flat = (eve: number) => (l: DateTime) => (l.hour >= 8 && l.hour < 20 ? (l.toISODate() === '2024-12-31' ? 10 * eve : 10) : null);
  const input = (history: DemandPoint[], locationId: string, specialDays: SpecialDay[] = company): ForecastInput => ({ history, zone, from: '2025-12-29', to: '2026-01-04', locationId, specialDays });
  const dinnerPlace = series(zone, '2024-10-07', '2025-12-28', flat(1.4));
  const cafe = series(zone, '2024-10-07', '2025-12-28', flat(0.7));

  it("learns the company's day from each location's own past: New Year's Eve lifts the dinner place and dips the café", () => {
    const lifted = forecastDemand(input(dinnerPlace, 'loc_dinner')).days.find((d) => d.date === '2025-12-31')!;
    const dipped = forecastDemand(input(cafe, 'loc_cafe')).days.find((d) => d.date === '2025-12-31')!;
    expect(lifted.special).toMatchObject({ kind: 'lift', name: "New Year's Eve", source: 'learned' });
    expect(dipped.special).toMatchObject({ kind: 'lift', name: "New Year's Eve", source: 'learned' });
    near(lifted.special!.percent, 40, 0.02);
    near(dipped.special!.percent, -30, 0.02);
    near(lifted.total, 480 * 1.4, 0.02);
    near(dipped.total, 480 * 0.7, 0.02);
  });

  it("a location's entry overrides the company's on its date there, and other locations' entries do not apply", () => {
    const days: SpecialDay[] = [
      ...company,
      { date: '2025-12-31', kind: 'closed', name: 'Remodel', locationId: 'loc_cafe' },
      { date: '2025-12-30', kind: 'dip', expectedPercent: -50, locationId: 'loc_dinner' },
    ];
    const atCafe = forecastDemand(input(cafe, 'loc_cafe', days)).days;
    expect(atCafe.find((d) => d.date === '2025-12-31')!.special).toEqual({ kind: 'closed', name: 'Remodel', percent: -100, source: 'closed' });
    expect(atCafe.find((d) => d.date === '2025-12-30')!.special).toBeUndefined();
    const atDinner = forecastDemand(input(dinnerPlace, 'loc_dinner', days)).days;
    expect(atDinner.find((d) => d.date === '2025-12-31')!.special).toMatchObject({ name: "New Year's Eve", source: 'learned' });
    expect(atDinner.find((d) => d.date === '2025-12-30')!.special).toEqual({ kind: 'dip', percent: -50, source: 'given' });
  });

  it("a location's own past occurrences of its own special day drive its effect", () => {
    const promo = (l: DateTime) => (l.hour >= 8 && l.hour < 20 ? (l.toISODate() === '2025-06-14' ? 25 : 10) : null);
    const days: SpecialDay[] = [
      { date: '2025-06-14', kind: 'lift', name: 'Street party', locationId: 'loc_a' },
      { date: '2025-12-31', kind: 'lift', name: 'Street party', locationId: 'loc_a' },
    ];
    const own = forecastDemand(input(series(zone, '2025-03-03', '2025-12-28', promo), 'loc_a', days)).days.find((d) => d.date === '2025-12-31')!;
    expect(own.special).toMatchObject({ name: 'Street party', source: 'learned' });
    near(own.special!.percent, 150, 0.02);
    // elsewhere the entry is not there at all
    expect(forecastDemand(input(series(zone, '2025-03-03', '2025-12-28', promo), 'loc_b', days)).days.find((d) => d.date === '2025-12-31')!.special).toBeUndefined();
  });
});
