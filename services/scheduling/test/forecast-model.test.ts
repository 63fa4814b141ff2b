import { DateTime } from 'luxon';
import { bucketForecast, forecastDemand, forecastSeries, ForecastInputError, InsufficientHistory, type DemandPoint, type ForecastInput } from '../src/forecasts/model';

const SLOT_MS = 15 * 60_000;

/** 15-minute points of the local days first..last; `value` null leaves the interval (or the whole day) out */
function series(zone: string, first: string, last: string, value: (local: DateTime, day: number) => number | null): DemandPoint[] {
  const points: DemandPoint[] = [];
  const end = DateTime.fromISO(last, { zone }).plus({ days: 1 });
  let day = DateTime.fromISO(first, { zone });
  for (let i = 0; day < end; i++) {
    const next = day.plus({ days: 1 });
    for (let ms = day.toMillis(); ms < next.toMillis(); ms += SLOT_MS) {
      const v = value(DateTime.fromMillis(ms, { zone }), i);
      if (v !== null) points.push({ start: DateTime.fromMillis(ms, { zone: 'utc' }).toISO()!, value: v });
    }
    day = next;
  }
  return points;
}

const openHours = (local: DateTime, from = 8, to = 20) => local.hour >= from && local.hour < to;
const localOf = (start: string, zone: string) => DateTime.fromISO(start, { zone });
const pointsOn = <T extends { start: string }>(points: T[], date: string, zone: string) => points.filter((p) => localOf(p.start, zone).toISODate() === date);

function expectNear(actual: number, expected: number, relative: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(relative * Math.abs(expected) + 1e-9);
}

describe('forecast model', () => {
  const zone = 'Europe/Paris';

  it('forecasts a flat series at its level, and 0 outside the hours it had demand (missing intervals of an open day count as zero)', () => {
    const history = series(zone, '2025-01-06', '2025-03-16', (l) => (openHours(l) ? 10 : null));
    const points = forecastSeries({ history, zone, from: '2025-03-17', to: '2025-03-23' });
    expect(points).toHaveLength(7 * 96);
    for (const p of points) expectNear(p.value, openHours(localOf(p.start, zone)) ? 10 : 0, 1e-6);
  });

  it('reproduces a pure weekly pattern (weekday levels × a daily shape)', () => {
    const weekday = [1, 1.1, 1.2, 1.3, 1.6, 2, 0.8];
    const pattern = (l: DateTime) => (openHours(l, 7, 22) ? weekday[l.weekday - 1] * (5 + l.hour + l.minute / 60) : 0);
    const history = series(zone, '2025-01-06', '2025-03-30', pattern);
    const result = forecastDemand({ history, zone, from: '2025-03-31', to: '2025-04-13' });
    expect(result.points).toHaveLength(14 * 96);
    for (const p of result.points) expectNear(p.value, pattern(localOf(p.start, zone)), 1e-6);
    expect(result.weeksOfHistory).toBe(12);
    expect(result.trainedThrough).toBe('2025-03-30');
  });

  it('follows a trend', () => {
    // +0.5 % of the first level a day; 12 weeks of history, so no yearly season
    const level = (day: number) => 10 * (1 + 0.005 * day);
    const history = series(zone, '2025-01-06', '2025-03-30', (l, day) => (openHours(l) ? level(day) : null));
    const result = forecastDemand({ history, zone, from: '2025-03-31', to: '2025-04-06' });
    expect(result.trendPercentPerWeek).toBeGreaterThan(2);
    const lastWeekMean = level(80);
    result.days.forEach((d, k) => {
      expectNear(d.total, 48 * level(84 + k), 0.02);
      expect(d.total).toBeGreaterThan(48 * lastWeekMean * 1.02);
    });
  });

  it('forecasts 0 on a closed special day', () => {
    const history = series(zone, '2025-01-06', '2025-03-16', (l) => (openHours(l) ? 10 : null));
    const result = forecastDemand({ history, zone, from: '2025-03-17', to: '2025-03-23', specialDays: [{ date: '2025-03-19', kind: 'closed', name: 'Inventory' }] });
    const closed = result.days.find((d) => d.date === '2025-03-19')!;
    expect(closed.total).toBe(0);
    expect(closed.special).toEqual({ kind: 'closed', name: 'Inventory', percent: -100, source: 'closed' });
    expect(pointsOn(result.points, '2025-03-19', zone).every((p) => p.value === 0)).toBe(true);
    expectNear(result.days.find((d) => d.date === '2025-03-20')!.total, 480, 1e-6);
  });

  it('learns a lift special day from the same named day a year earlier', () => {
    const festival2024 = '2024-06-15';
    const history = series(zone, '2024-01-01', '2025-06-01', (l) => (openHours(l) ? (l.toISODate() === festival2024 ? 15 : 10) : null));
    const specialDays = [
      { date: festival2024, kind: 'lift' as const, name: 'Festival' },
      { date: '2025-06-14', kind: 'lift' as const, name: 'Festival' },
    ];
    const result = forecastDemand({ history, zone, from: '2025-06-02', to: '2025-06-15', specialDays });
    expect(result.yearlyLags).toEqual([364]);
    const festival = result.days.find((d) => d.date === '2025-06-14')!;
    expect(festival.special?.source).toBe('learned');
    expectNear(festival.special!.percent, 50, 0.01);
    expectNear(festival.total, 1.5 * 480, 0.01);
    expectNear(result.days.find((d) => d.date === '2025-06-13')!.total, 480, 0.01);
  });

  it('takes a given expected percent, and a default when there is nothing to learn from', () => {
    const history = series(zone, '2025-01-06', '2025-03-16', (l) => (openHours(l) ? 10 : null));
    const result = forecastDemand({
      history,
      zone,
      from: '2025-03-17',
      to: '2025-03-23',
      specialDays: [
        { date: '2025-03-18', kind: 'dip', expectedPercent: -30, name: 'Roadworks' },
        { date: '2025-03-21', kind: 'lift', name: 'Concert' },
      ],
    });
    expectNear(result.days[1].total, 480 * 0.7, 1e-6);
    expect(result.days[1].special?.source).toBe('given');
    expectNear(result.days[4].total, 480 * 1.2, 1e-6);
    expect(result.days[4].special?.source).toBe('default');
  });

  it('forecasts 0 on a weekday the location is regularly closed', () => {
    const history = series(zone, '2025-01-06', '2025-03-16', (l) => (l.weekday === 1 ? null : openHours(l) ? 10 : null));
    const result = forecastDemand({ history, zone, from: '2025-03-17', to: '2025-03-23' });
    expect(result.days[0].total).toBe(0);
    expect(result.days[0].baseline).toBe(0);
    for (const d of result.days.slice(1)) expectNear(d.total, 480, 1e-6);
  });

  describe('a DST week in America/New_York', () => {
    const ny = 'America/New_York';
    const pattern = (l: DateTime) => (openHours(l, 7, 22) ? (l.weekday >= 6 ? 1.5 : 1) * (5 + l.hour) : 0);

    it('spring forward: the 23-hour day has 92 intervals on the wall-clock pattern', () => {
      const history = series(ny, '2024-12-02', '2025-03-02', pattern);
      const result = forecastDemand({ history, zone: ny, from: '2025-03-03', to: '2025-03-09' });
      expect(result.days.map((d) => d.intervals)).toEqual([96, 96, 96, 96, 96, 96, 92]);
      expect(result.points).toHaveLength(6 * 96 + 92);
      result.points.slice(1).forEach((p, i) => expect(Date.parse(p.start) - Date.parse(result.points[i].start)).toBe(SLOT_MS));
      const sunday = pointsOn(result.points, '2025-03-09', ny);
      expect(sunday[0].start).toBe('2025-03-09T05:00:00.000Z');
      expect(sunday[8].start).toBe('2025-03-09T07:00:00.000Z'); // 03:00 EDT follows 01:45 EST
      for (const p of result.points) expectNear(p.value, pattern(localOf(p.start, ny)), 1e-6);
      const daily = bucketForecast(result.points, '1d', ny);
      expect(daily.at(-1)).toEqual({ start: '2025-03-09T05:00:00.000Z', end: '2025-03-10T04:00:00.000Z', value: expect.any(Number) });
    });

    it('fall back: the 25-hour day has 100 intervals, learned from a history across both changes', () => {
      const history = series(ny, '2025-02-03', '2025-10-26', pattern);
      const result = forecastDemand({ history, zone: ny, from: '2025-10-27', to: '2025-11-02' });
      expect(result.days.map((d) => d.intervals)).toEqual([96, 96, 96, 96, 96, 96, 100]);
      const sunday = pointsOn(result.points, '2025-11-02', ny);
      expect(sunday).toHaveLength(100);
      expect(sunday[0].start).toBe('2025-11-02T04:00:00.000Z');
      for (const p of result.points) expectNear(p.value, pattern(localOf(p.start, ny)), 1e-6);
      const hourly = bucketForecast(sunday, '1h', ny);
      expect(hourly).toHaveLength(25);
      expect(hourly[1]).toEqual({ start: '2025-11-02T05:00:00.000Z', end: '2025-11-02T06:00:00.000Z', value: 0 });
      expect(hourly[2].start).toBe('2025-11-02T06:00:00.000Z'); // the repeated 01:00, now EST
      const daily = bucketForecast(sunday, '1d', ny);
      expect(daily).toHaveLength(1);
      expect(daily[0].start).toBe('2025-11-02T04:00:00.000Z');
      expect(daily[0].end).toBe('2025-11-03T05:00:00.000Z');
    });
  });

  it('aggregates into hourly and daily buckets', () => {
    const history = series(zone, '2025-01-06', '2025-03-16', (l) => (openHours(l) ? 10 + l.minute : null));
    const points = forecastSeries({ history, zone, from: '2025-03-17', to: '2025-03-18' });
    const quarter = bucketForecast(points, '15m', zone);
    expect(quarter).toHaveLength(2 * 96);
    expect(quarter[0]).toEqual({ start: '2025-03-16T23:00:00.000Z', end: '2025-03-16T23:15:00.000Z', value: points[0].value });
    const hourly = bucketForecast(points, '1h', zone);
    expect(hourly).toHaveLength(48);
    const nine = hourly.find((b) => b.start === '2025-03-17T08:00:00.000Z')!; // 09:00 in Paris
    expect(nine.end).toBe('2025-03-17T09:00:00.000Z');
    expectNear(nine.value, 10 + 25 + 40 + 55, 1e-6);
    const daily = bucketForecast(points, '1d', zone);
    expect(daily.map((b) => [b.start, b.end])).toEqual([
      ['2025-03-16T23:00:00.000Z', '2025-03-17T23:00:00.000Z'],
      ['2025-03-17T23:00:00.000Z', '2025-03-18T23:00:00.000Z'],
    ]);
    expectNear(daily[0].value, 12 * (40 + 90), 1e-6);
    expectNear(daily[0].value + daily[1].value, points.reduce((a, p) => a + p.value, 0), 1e-9);
  });

  it('applies adjustments by percent, compounding on one day', () => {
    const history = series(zone, '2025-01-06', '2025-03-16', (l) => (openHours(l) ? 10 : null));
    const result = forecastDemand({
      history,
      zone,
      from: '2025-03-17',
      to: '2025-03-20',
      adjustments: [
        { date: '2025-03-17', percent: 10 },
        { date: '2025-03-18', percent: -100 },
        { date: '2025-03-19', percent: 20 },
        { date: '2025-03-19', percent: -50 },
      ],
    });
    expect(result.days.map((d) => Math.round(d.total * 1000) / 1000)).toEqual([528, 0, 288, 480]);
    expectNear(result.days[0].adjustmentPercent, 10, 1e-9);
    expect(result.days[0].baseline).toBeCloseTo(480, 6);
  });

  it('ignores history from the local day of asOf on (an incomplete day) and from the first forecast day on', () => {
    const history = series(zone, '2025-01-06', '2025-03-20', (l) => (l.toISODate()! >= '2025-03-17' ? (l.hour < 9 ? 1 : null) : openHours(l) ? 10 : null));
    const result = forecastDemand({ history, zone, from: '2025-03-20', to: '2025-03-21', asOf: '2025-03-17T08:30:00Z' });
    expect(result.trainedThrough).toBe('2025-03-16');
    for (const d of result.days) expectNear(d.total, 480, 1e-6);
  });

  it('forecasts from fewer than 8 weeks with its own profile (method own_profile, a lower confidence); only no history at all throws InsufficientHistory', () => {
    const history = series(zone, '2025-02-10', '2025-03-16', (l) => (openHours(l) ? 10 : null));
    const input: ForecastInput = { history, zone, from: '2025-03-17', to: '2025-03-23' };
    const result = forecastDemand(input);
    expect([result.method, result.weeksOfHistory, result.daysOfHistory]).toEqual(['own_profile', 5, 35]);
    expect(result.confidence).toEqual({ level: 'medium', expectedErrorPercent: 41.5 });
    for (const d of result.days) expectNear(d.total, 480, 1e-6);
    // three days: plain mean levels, the pooled profile
    const three = forecastDemand({ ...input, history: series(zone, '2025-03-14', '2025-03-16', (l) => (openHours(l) ? 10 : null)) });
    expect([three.method, three.daysOfHistory, three.confidence.level]).toEqual(['own_profile', 3, 'low']);
    for (const d of three.days) expectNear(d.total, 480, 1e-6);
    // 22 weeks since the first day with data, none in the last 12: full, but of low confidence
    expect(forecastDemand({ ...input, from: '2025-07-14', to: '2025-07-14' })).toMatchObject({ method: 'full', confidence: { level: 'low' } });
    expect(() => forecastDemand({ ...input, history: [] })).toThrow(InsufficientHistory);
    try {
      forecastDemand({ ...input, history: [{ start: '2025-03-18T10:00:00Z', value: 5 }] });
      throw new Error('expected InsufficientHistory');
    } catch (err) {
      expect(err).toMatchObject({ name: 'InsufficientHistory', weeksAvailable: 0, weeksRecommended: 8 });
    }
  });

  it('rejects malformed input with ForecastInputError', () => {
    const history = series(zone, '2025-01-06', '2025-03-16', (l) => (openHours(l) ? 10 : null));
    const base: ForecastInput = { history, zone, from: '2025-03-17', to: '2025-03-23' };
    expect(() => forecastDemand({ ...base, zone: 'Mars/Olympus' })).toThrow(ForecastInputError);
    expect(() => forecastDemand({ ...base, from: '2025-02-30' })).toThrow(ForecastInputError);
    expect(() => forecastDemand({ ...base, to: '2025-03-01' })).toThrow(ForecastInputError);
    expect(() => forecastDemand({ ...base, history: [...history, { start: '2025-03-01T10:00:00', value: 1 }] })).toThrow(ForecastInputError);
    expect(() => forecastDemand({ ...base, history: [...history, { start: '2025-03-01T10:00:00Z', value: Number.NaN }] })).toThrow(ForecastInputError);
  });
});
