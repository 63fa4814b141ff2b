import type { OvertimeRules } from './overtime';

/** Until the company sets its own: overtime after 40 hours a week at 1.5 (the US federal rule), no daily or consecutive-day rule. */
export const DEFAULT_OVERTIME: OvertimeRules = { daily: [], weekly: [{ after: '40', multiplier: '1.5' }], consecutiveDay: null };

/** Until the company sets its own: no breaks required, no shift-length limit. */
export const DEFAULT_BREAKS = { breaks: [] as Array<{ name: string; paid: boolean; minutes: number; dueAfterHours: string }>, maxShiftHours: null as string | null };

/** The id of a rule set: one per kind and scope. */
export const ruleSetId = (kind: 'break' | 'overtime', locationId: string | null) => `${kind}:${locationId ?? 'company'}`;
