import { callCommand, type ServiceClient } from '@bop/shared';
import type { PayPeriodFrequency } from '../pay-periods/calendar';

export type WeekStart = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';

/** The company settings time decides by: the workweek, the pay-period calendar and the company's time zone. */
export interface TimeSettings {
  weekStart: WeekStart;
  payPeriodFrequency: PayPeriodFrequency;
  payPeriodAnchorDate: string;
  timezone: string;
  defaultCurrency: string;
}

/** identity's defaults (its first migration), for a time service run without a way to identity (tests of the service alone). */
export const DEFAULT_TIME_SETTINGS: TimeSettings = { weekStart: 'monday', payPeriodFrequency: 'biweekly', payPeriodAnchorDate: '2026-01-05', timezone: 'UTC', defaultCurrency: 'USD' };

/** Read from identity when a decision needs them (`GET /internal/company-settings`), so a change applies to the very next write. */
export async function timeSettings(services: ServiceClient, requestId?: string): Promise<TimeSettings> {
  if (!services.has('identity')) return DEFAULT_TIME_SETTINGS;
  const s = await callCommand<Partial<TimeSettings>>(services, 'identity', 'GET', '/internal/company-settings', undefined, { what: 'read the company settings', ok: [200], requestId });
  return {
    weekStart: s.weekStart ?? DEFAULT_TIME_SETTINGS.weekStart,
    payPeriodFrequency: s.payPeriodFrequency ?? DEFAULT_TIME_SETTINGS.payPeriodFrequency,
    payPeriodAnchorDate: s.payPeriodAnchorDate ?? DEFAULT_TIME_SETTINGS.payPeriodAnchorDate,
    timezone: s.timezone ?? DEFAULT_TIME_SETTINGS.timezone,
    defaultCurrency: s.defaultCurrency ?? DEFAULT_TIME_SETTINGS.defaultCurrency,
  };
}
