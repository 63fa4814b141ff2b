import type { OvertimeRules } from '../src/rules/overtime';

/** California-style overtime: daily after 8 h at 1.5 and after 12 h at 2, weekly after 40 h, the 7th consecutive day. */
export const CALIFORNIA: OvertimeRules = {
  daily: [
    { after: '8', multiplier: '1.5' },
    { after: '12', multiplier: '2' },
  ],
  weekly: [{ after: '40', multiplier: '1.5' }],
  consecutiveDay: {
    day: 7,
    tiers: [
      { after: '0', multiplier: '1.5' },
      { after: '8', multiplier: '2' },
    ],
  },
};

/** A plain 40-hour week. */
export const FORTY_HOURS: OvertimeRules = { daily: [], weekly: [{ after: '40', multiplier: '1.5' }], consecutiveDay: null };
