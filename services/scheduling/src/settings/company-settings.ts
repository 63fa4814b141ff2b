import { callCommand, type ServiceClient } from '@bop/shared';

export type WeekStart = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';

/** What scheduling's warnings decide by: the workweek and the least rest (identity), the weekly overtime threshold (time's rules). */
export interface SchedulingSettings {
  weekStart: WeekStart;
  minRestHours: number;
  /** regular hours in a workweek after which overtime is paid; null: the rules have no weekly tier */
  weeklyOvertimeAfter: number | null;
  /** what an overtime hour of that weekly tier pays, as a multiple of the rate (1.5 by default) */
  overtimeMultiplier: number;
}

/**
 * Read when a write needs them, so a change applies to the very next shift: identity's company
 * settings and, for the location, time's overtime rules in force (`POST /internal/overtime-rules:resolve`). A service run
 * alone (tests of scheduling by itself) uses identity's defaults and `fallbackWeeklyHours`.
 */
export async function schedulingSettings(services: ServiceClient, locationId: string, fallbackWeeklyHours: number, requestId?: string): Promise<SchedulingSettings> {
  const [company, overtime] = await Promise.all([
    services.has('identity')
      ? callCommand<{ weekStart?: WeekStart; minRestHours?: number }>(services, 'identity', 'GET', '/internal/company-settings', undefined, { what: 'read the company settings', ok: [200], requestId })
      : Promise.resolve({} as { weekStart?: WeekStart; minRestHours?: number }),
    services.has('time')
      ? callCommand<{ rules: Record<string, { weekly?: Array<{ after: string; multiplier: string }> }> }>(services, 'time', 'POST', '/internal/overtime-rules:resolve', { locationIds: [locationId] }, {
          what: 'read the overtime rules',
          ok: [200],
          requestId,
        })
      : Promise.resolve(null),
  ]);
  const tiers = overtime?.rules[locationId]?.weekly;
  const weekly = overtime === null ? fallbackWeeklyHours : tiers && tiers.length > 0 ? Number(tiers[0].after) : null;
  const multiplier = tiers && tiers.length > 0 ? Number(tiers[0].multiplier) : 1.5;
  return { weekStart: company.weekStart ?? 'monday', minRestHours: company.minRestHours ?? 10, weeklyOvertimeAfter: weekly, overtimeMultiplier: multiplier };
}
