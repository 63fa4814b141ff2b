import { cashService } from '@svc/cash';
import { thresholdFor } from '@svc/cash/dist/counts/thresholds-store';
import { OverShortThresholdsEntity } from '@svc/cash/dist/counts/entities';
import type { SqlCase } from './case';

const LOCATIONS = 200;
const loc = (i: number) => `loc_bench${String(i).padStart(4, '0')}`;

export const cashCases: SqlCase[] = [
  {
    name: 'cash.threshold-for',
    what: 'the threshold of one location and count type among a company set (200 locations × 3 types)',
    service: cashService,
    async seed(write) {
      const thresholds = [null, ...Array.from({ length: LOCATIONS }, (_, i) => loc(i))].flatMap((locationId) =>
        (['drawer', 'safe', 'business_day'] as const).map((countType) => ({ locationId, countType, amount: '5.00', percent: null })),
      );
      await write((w) => w.em.nativeUpdate(OverShortThresholdsEntity, { id: 1 }, { thresholds, version: 2, updatedAt: w.now }));
    },
    raw: (w) => thresholdFor(w, loc(150), 'safe'),
    async orm(w) {
      const row = await w.em.findOneOrFail(OverShortThresholdsEntity, { id: 1 });
      const own = row.thresholds.find((t) => t.countType === 'safe' && t.locationId === loc(150));
      const t = own ?? row.thresholds.find((x) => x.countType === 'safe' && x.locationId === null);
      return t ? { amount: t.amount, percent: t.percent } : null;
    },
  },
];
