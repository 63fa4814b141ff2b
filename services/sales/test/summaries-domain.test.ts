/** Pure rules of sales summaries: the ingested arithmetic, business-day periods, built figures. */
import { SalesSummaryInput } from '@bop/contracts';
import { businessDayOf } from '../src';
import { builtFigures, businessDayPeriod, checkSummary, firstInstantAt, formatAmount, periodsOverlap } from '../src/summaries/summary-rules';

const summary = (over: Record<string, unknown> = {}) =>
  SalesSummaryInput.parse({
    externalId: '2026-11-20',
    locationId: 'loc_1',
    periodStart: '2026-11-20T09:00:00Z',
    periodEnd: '2026-11-21T09:00:00Z',
    grossSales: '120.00',
    discounts: '5.50',
    netSales: '114.50',
    tax: '9.16',
    transactions: 12,
    byChannel: [
      { channel: 'in_store', netSales: '100.00', transactions: 10 },
      { channel: 'delivery', netSales: '14.50', transactions: 2 },
    ],
    ...over,
  });

describe('checkSummary', () => {
  it('accepts figures that add up', () => {
    expect(checkSummary(summary())).toEqual([]);
    expect(checkSummary(summary({ byChannel: undefined, discounts: undefined, netSales: '120.00' }))).toEqual([]);
  });

  it('checks netSales = grossSales − discounts to the currency’s minor units', () => {
    expect(checkSummary(summary({ netSales: '114.40', byChannel: undefined }))).toEqual([{ path: 'netSales', message: 'netSales is 114.40 but grossSales − discounts is 114.50.' }]);
    // sub-cent spellings that round alike are the same figure
    expect(checkSummary(summary({ grossSales: '120.004', byChannel: undefined }))).toEqual([]);
    // JPY has no minor units: 1000.4 and 1000 are the same yen amount
    expect(checkSummary(summary({ currency: 'JPY', grossSales: '1000.4', discounts: '0', netSales: '1000', byChannel: undefined }))).toEqual([]);
    expect(checkSummary(summary({ currency: 'JPY', grossSales: '1001', discounts: '0', netSales: '1000', byChannel: undefined }))).toEqual([{ path: 'netSales', message: expect.stringContaining('1001') }]);
  });

  it('checks that byChannel adds up to netSales and transactions', () => {
    const errors = checkSummary(summary({ byChannel: [{ channel: 'in_store', netSales: '100.00', transactions: 9 }] }));
    expect(errors).toEqual([
      { path: 'byChannel', message: "The channels' netSales add up to 100.00 but netSales is 114.50." },
      { path: 'byChannel', message: "The channels' transactions add up to 9 but transactions is 12." },
    ]);
  });

  it('keeps a summary to an hour or a business day (at most 25 hours)', () => {
    expect(checkSummary(summary({ periodEnd: '2026-11-21T10:00:00Z' }))).toEqual([]);
    expect(checkSummary(summary({ periodEnd: '2026-11-21T10:00:01Z' }))).toEqual([{ path: 'periodEnd', message: expect.stringContaining('at most 25 hours') }]);
  });

  it('allows negative money figures (a period of refunds) but no negative counts', () => {
    expect(checkSummary(summary({ grossSales: '-10.00', discounts: '0', netSales: '-10.00', tax: '-0.80', transactions: 0, byChannel: undefined }))).toEqual([]);
    expect(SalesSummaryInput.safeParse({ ...summary(), transactions: -1 }).success).toBe(false);
  });
});

describe('SalesSummaryInput (schema)', () => {
  const paths = (over: Record<string, unknown>) => {
    const r = SalesSummaryInput.safeParse({ ...summary(), ...over });
    return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
  };
  it('refuses what a summary cannot be, with field paths', () => {
    expect(paths({ periodEnd: '2026-11-20T09:00:00Z' })).toEqual(['periodEnd']);
    expect(paths({ periodStart: '2026-11-20T04:00:00-05:00' })).toEqual(['periodStart']);
    expect(paths({ netSales: 114.5 })).toEqual(['netSales']);
    expect(paths({ transactions: 1.5 })).toEqual(['transactions']);
    expect(paths({ locationExternalId: 'NYC-1' })).toEqual(['locationId']);
    expect(paths({ externalId: 'built:x' })).toEqual(['externalId']);
    expect(paths({ currency: 'usd' })).toEqual(['currency']);
    expect(paths({ byChannel: [{ channel: 'a', netSales: '1', transactions: 1 }, { channel: 'a', netSales: '1', transactions: 1 }] })).toEqual(['byChannel.1.channel']);
    expect(paths({ extra: 1 })).toEqual(['']);
  });
});

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('business-day periods', () => {
  it('runs from the cut-off to the next day’s, in UTC', () => {
    expect(businessDayPeriod('2026-11-20', 'America/New_York', '04:00')).toEqual({ start: new Date('2026-11-20T09:00:00Z'), end: new Date('2026-11-21T09:00:00Z') });
    expect(businessDayPeriod('2026-11-20', 'Europe/Berlin', '05:00')).toEqual({ start: new Date('2026-11-20T04:00:00Z'), end: new Date('2026-11-21T04:00:00Z') });
    expect(businessDayPeriod('2026-11-20', 'Asia/Kolkata', '00:00')).toEqual({ start: new Date('2026-11-19T18:30:00Z'), end: new Date('2026-11-20T18:30:00Z') });
  });

  it('is 23 hours on the day clocks spring forward and 25 on the day they fall back', () => {
    const spring = businessDayPeriod('2026-03-08', 'America/New_York', '00:00');
    expect(spring).toEqual({ start: new Date('2026-03-08T05:00:00Z'), end: new Date('2026-03-09T04:00:00Z') });
    const fall = businessDayPeriod('2026-11-01', 'America/New_York', '00:00');
    expect(fall).toEqual({ start: new Date('2026-11-01T04:00:00Z'), end: new Date('2026-11-02T05:00:00Z') });
  });

  it('starts a cut-off in a skipped hour when the clocks jump, and one in a repeated hour at its first pass', () => {
    expect(firstInstantAt('2026-03-08', '02:30', 'America/New_York')).toEqual(new Date('2026-03-08T07:00:00Z'));
    expect(firstInstantAt('2026-11-01', '01:30', 'America/New_York')).toEqual(new Date('2026-11-01T05:30:00Z'));
    // Lord Howe shifts by 30 minutes: 02:00 → 02:30 on 2026-10-04
    expect(firstInstantAt('2026-10-04', '02:15', 'Australia/Lord_Howe')).toEqual(new Date('2026-10-03T15:30:00Z'));
  });

  it('agrees with businessDayOf at every boundary of 2026 in several zones and cut-offs', () => {
    const zones = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Santiago', 'UTC'];
    const cutoffs = ['00:00', '01:30', '02:30', '04:00', '23:30'];
    const wrong: string[] = [];
    for (const zone of zones) {
      for (const cutoff of cutoffs) {
        for (let n = 0; n < 365; n++) {
          const day = isoDay(Date.UTC(2026, 0, 1 + n));
          const before = isoDay(Date.UTC(2026, 0, n));
          const { start, end } = businessDayPeriod(day, zone, cutoff);
          const at = (ms: number) => businessDayOf(new Date(ms).toISOString(), zone, cutoff);
          if (at(start.getTime()) !== day || at(start.getTime() - 60_000) !== before || at(end.getTime() - 60_000) !== day) wrong.push(`${zone} ${cutoff} ${day}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('built figures', () => {
  it('rounds each channel, adds channels up exactly and leaves out channels with nothing completed', () => {
    const f = builtFigures(
      [
        { channel: 'in_store', gross: '19.255', discounts: '1.00', tax: '1.46', sales: 1, completed: 1 },
        { channel: null, gross: '2.97', discounts: '0', tax: '0', sales: 1, completed: 1 },
        { channel: 'delivery', gross: '-2.25', discounts: '0', tax: '-0.18', sales: 0, completed: 1 },
        { channel: 'kiosk', gross: '0', discounts: '0', tax: '0', sales: 0, completed: 0 },
      ],
      'USD',
    );
    expect(f).toEqual({
      grossSales: '19.98',
      discounts: '1.00',
      netSales: '18.98',
      tax: '1.28',
      transactions: 2,
      byChannel: [
        { channel: 'delivery', netSales: '-2.25', transactions: 0 },
        { channel: 'in_store', netSales: '18.26', transactions: 1 },
        { channel: 'unspecified', netSales: '2.97', transactions: 1 },
      ],
    });
    expect(builtFigures([], 'JPY')).toEqual({ grossSales: '0', discounts: '0', netSales: '0', tax: '0', transactions: 0, byChannel: [] });
  });

  it('formats amounts without a currency to at least 2 decimals, and tells overlapping periods from touching ones', () => {
    expect(formatAmount('10.5', null)).toBe('10.50');
    expect(formatAmount('-0', null)).toBe('0.00');
    expect(formatAmount('1.2345', null)).toBe('1.2345');
    const h = (a: string, b: string) => ({ start: `2026-11-20T${a}:00:00Z`, end: `2026-11-20T${b}:00:00Z` });
    expect(periodsOverlap(h('09', '10'), h('10', '11'))).toBe(false);
    expect(periodsOverlap(h('09', '11'), h('10', '11'))).toBe(true);
  });
});
