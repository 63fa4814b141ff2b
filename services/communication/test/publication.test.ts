import { deadlineError, eventLocationId, isOverdue, publicationOutcome } from '../src/announcements/publication';

const at = (s: string) => new Date(s);

describe('announcement publication rules', () => {
  it('publishes at once without publishAt or with one not in the future; schedules a future one', () => {
    const now = at('2026-12-01T10:00:00Z');
    expect(publicationOutcome(null, now)).toBe('published');
    expect(publicationOutcome(at('2026-12-01T10:00:00Z'), now)).toBe('published');
    expect(publicationOutcome(at('2026-12-01T09:00:00Z'), now)).toBe('published');
    expect(publicationOutcome(at('2026-12-01T10:00:01Z'), now)).toBe('scheduled');
  });

  it('overdue strictly past the deadline and only without an acknowledgement', () => {
    const deadline = at('2026-12-05T17:00:00Z');
    expect(isOverdue(deadline, null, at('2026-12-05T17:00:00Z'))).toBe(false);
    expect(isOverdue(deadline, null, at('2026-12-05T17:00:00.001Z'))).toBe(true);
    expect(isOverdue(deadline, at('2026-12-06T08:00:00Z'), at('2026-12-07T00:00:00Z'))).toBe(false);
    expect(isOverdue(null, null, at('2030-01-01T00:00:00Z'))).toBe(false);
  });

  it('a deadline must fall after the publication', () => {
    expect(deadlineError(null, at('2026-12-01T10:00:00Z'))).toBeNull();
    expect(deadlineError(at('2026-12-01T10:00:00Z'), at('2026-12-01T10:00:00Z'))).toMatch(/not after the publication/);
    expect(deadlineError(at('2026-12-02T10:00:00Z'), at('2026-12-01T10:00:00Z'))).toBeNull();
  });

  it("events carry the audience's one location, or none", () => {
    expect(eventLocationId(['loc_a'])).toBe('loc_a');
    expect(eventLocationId(['loc_a', 'loc_b'])).toBeNull();
    expect(eventLocationId([])).toBeNull();
  });
});
