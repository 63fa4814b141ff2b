/**
 * Business-day bookkeeping every writer of cash shares (supplement: Business day states): a day of a
 * location exists (`open`) from the first record assigned to it, and a closed day takes no direct
 * edit (409 `period_locked`); ingested records for it are stored and flagged for review instead.
 */
export interface DayRef {
  locationId: string;
  businessDay: string;
}

export const dayKey = (d: DayRef) => `${d.locationId}|${d.businessDay}`;

/** The flag a record for a closed day carries (listed for review; the locked figures do not change). */
export const lateReview = (now: Date) => ({ status: 'pending' as const, flaggedAt: now.toISOString() });

/** The warning such a record gets in its batch result. */
export const lateWarning = (path: string, businessDays: string[]) => ({
  path,
  message: `Business day ${businessDays.join(', ')} is closed in cash: stored and flagged for review; the day's locked figures do not change until it is reopened.`,
});
