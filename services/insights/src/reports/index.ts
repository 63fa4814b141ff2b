import type { ReportDefinition } from './registry';
import { salesByChannel, salesByDay, salesByHour, salesByItem } from './sales';
import { laborVsSales, timesheetSummary } from './labor';
import { overShort, wasteByReason } from './cash-waste';

/** Every report `GET /reports` lists, in that order. Add a report here (see registry.ts). */
export const REPORTS: ReportDefinition[] = [salesByDay, salesByHour, salesByItem, salesByChannel, laborVsSales, timesheetSummary, overShort, wasteByReason];

const byKey = new Map(REPORTS.map((r) => [r.key, r]));

export const reportByKey = (key: string): ReportDefinition | undefined => byKey.get(key);
