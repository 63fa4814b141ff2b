/** What `:publish` does with the instant it is asked to publish at (supplement: Announcement rows). */
export function publicationOutcome(publishAt: Date | null | undefined, now: Date): 'published' | 'scheduled' {
  // spec: no publishAt, or one in the past → published; in the future → scheduled
  return publishAt && publishAt.getTime() > now.getTime() ? 'scheduled' : 'published';
}

/** A person is overdue once the deadline has passed (strictly) and they have not acknowledged. */
export function isOverdue(acknowledgeBy: Date | null | undefined, acknowledgedAt: Date | null | undefined, now: Date): boolean {
  return !!acknowledgeBy && !acknowledgedAt && now.getTime() > acknowledgeBy.getTime();
}

/** Why a deadline cannot stand against the instant the announcement is (or will be) published, or null. */
export function deadlineError(acknowledgeBy: Date | null | undefined, publishedFrom: Date): string | null {
  if (!acknowledgeBy) return null;
  if (acknowledgeBy.getTime() <= publishedFrom.getTime()) return `The deadline ${acknowledgeBy.toISOString()} is not after the publication (${publishedFrom.toISOString()}).`;
  return null;
}

/** The one location of an audience, for the events' `locationId`; null for several or none (company-wide). */
export function eventLocationId(locationIds: readonly string[]): string | null {
  return locationIds.length === 1 ? locationIds[0] : null;
}
