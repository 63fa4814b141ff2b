import type { FormSubmission } from '@bop/contracts';
import type { OperationsFormSubmission } from './entities';

export const iso = (d: Date | string) => new Date(d).toISOString();

/** The score fields a submission and an audit share. */
export const scoreOf = (s: OperationsFormSubmission) => ({
  scored: s.scored,
  score: s.score ?? null,
  points: s.points ?? null,
  maxPoints: s.maxPoints ?? null,
  passMark: s.passMark ?? null,
  passed: s.passed,
  failedCount: s.failedCount,
  criticalFailed: s.criticalFailed,
  sectionScores: s.sectionScores,
});

/** A submission on the wire, with its per-question results. */
export function submissionDto(s: OperationsFormSubmission): FormSubmission {
  return {
    id: s.id,
    externalId: s.externalId ?? null,
    formId: s.formId,
    formName: s.formName,
    formKind: s.formKind,
    formVersion: s.formVersion,
    locationId: s.locationId,
    startedAt: s.startedAt ? iso(s.startedAt) : null,
    completedAt: iso(s.completedAt),
    submittedAt: iso(s.createdAt),
    completedByEmployeeId: s.completedByEmployeeId ?? null,
    submittedBy: s.submittedBy,
    note: s.note ?? null,
    ...scoreOf(s),
    results: s.results,
    correctiveActionIds: s.correctiveActionIds,
    createdAt: iso(s.createdAt),
  };
}
