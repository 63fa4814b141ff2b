import type { Audit } from '@bop/contracts';
import type { OperationsFormSubmission } from '../submissions/entities';
import { iso, scoreOf } from '../submissions/dto';

/** A submission of an audit form as a scored audit: section scores and failed items. */
export function auditDto(s: OperationsFormSubmission): Audit {
  const titles = new Map(s.sectionScores.map((x) => [x.sectionId, x.title]));
  return {
    id: s.id,
    formId: s.formId,
    formName: s.formName,
    formVersion: s.formVersion,
    locationId: s.locationId,
    completedAt: iso(s.completedAt),
    submittedAt: iso(s.createdAt),
    completedByEmployeeId: s.completedByEmployeeId ?? null,
    submittedBy: s.submittedBy,
    ...scoreOf(s),
    failedItems: s.results
      .filter((r) => r.outcome === 'failed')
      .map((r) => ({
        questionId: r.questionId,
        sectionId: r.sectionId,
        sectionTitle: titles.get(r.sectionId) ?? r.sectionId,
        text: r.text,
        critical: r.critical,
        weight: r.weight,
        answer: r.answer,
        reason: r.reason,
        correctiveActionId: r.correctiveActionId,
      })),
    correctiveActionIds: s.correctiveActionIds,
  };
}
