import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { CorrectiveActionPriority, CorrectiveActionStatus } from '@bop/contracts';

type Actor = { type: 'user' | 'integration' | 'system' | 'employee'; id: string | null };

/** A corrective action at a location (supplement: `open` → `in_progress` → `closed`), by hand or from a failed answer. */
export const OperationsCorrectiveAction = defineEntity({
  name: 'OperationsCorrectiveAction',
  tableName: 'corrective_actions',
  properties: {
    id: p.string().primary(),
    locationId: p.string(),
    title: p.string(),
    description: p.string().nullable(),
    status: p.string().$type<CorrectiveActionStatus>(),
    priority: p.string().$type<CorrectiveActionPriority>(),
    assigneeId: p.string().nullable(),
    dueAt: p.datetime().nullable(),
    source: p.string().$type<'manual' | 'form_submission'>(),
    submissionId: p.string().nullable(),
    formId: p.string().nullable(),
    questionId: p.string().nullable(),
    failureReason: p.string().nullable(),
    resolution: p.string().nullable(),
    resolutionAttachmentIds: p.array().$type<string[]>(),
    startedAt: p.datetime().nullable(),
    closedAt: p.datetime().nullable(),
    closedBy: p.json<Actor>().nullable(),
    createdBy: p.json<Actor>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type OperationsCorrectiveAction = InferEntity<typeof OperationsCorrectiveAction>;
