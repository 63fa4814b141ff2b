import type { CorrectiveAction } from '@bop/contracts';
import type { OperationsCorrectiveAction } from './entities';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A corrective action on the wire; `overdue` as of `at` (not closed and past due). */
export function correctiveActionDto(a: OperationsCorrectiveAction, at: Date): CorrectiveAction {
  return {
    id: a.id,
    locationId: a.locationId,
    title: a.title,
    description: a.description ?? null,
    status: a.status,
    priority: a.priority,
    assigneeId: a.assigneeId ?? null,
    dueAt: iso(a.dueAt),
    overdue: a.status !== 'closed' && !!a.dueAt && new Date(a.dueAt).getTime() < at.getTime(),
    source: a.source,
    submissionId: a.submissionId ?? null,
    formId: a.formId ?? null,
    questionId: a.questionId ?? null,
    failureReason: a.failureReason ?? null,
    resolution: a.resolution ?? null,
    resolutionAttachmentIds: a.resolutionAttachmentIds,
    startedAt: iso(a.startedAt),
    closedAt: iso(a.closedAt),
    closedBy: a.closedBy ?? null,
    createdBy: a.createdBy,
    version: a.version,
    createdAt: iso(a.createdAt)!,
    updatedAt: iso(a.updatedAt)!,
  };
}
