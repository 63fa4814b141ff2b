import { businessDayOf } from '@bop/shared';

/** The calendar date at `at` in a location's time zone (a change "from 2026-12-01" starts at that local midnight). */
export function localDate(timezone: string, at: Date): string {
  return businessDayOf(at.toISOString(), timezone, '00:00');
}

/** Whether a change from `effectiveDate` applies on `today` (both local dates). */
export function inEffect(effectiveDate: string, today: string): boolean {
  return effectiveDate <= today;
}

/** The further locations kept: without the home location, without repeats, in the order given. */
export function furtherLocations(homeLocationId: string, locationIds: readonly string[]): string[] {
  return [...new Set(locationIds)].filter((id) => id !== homeLocationId);
}
