import { z } from '../zod';
import { Actor, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { utcTimestamp } from '../sales/transactions';
import { CorrectiveActionPriority } from './forms';

/**
 * Corrective actions (spec: Forms, checklists and compliance; supplement: Corrective action states
 * `open` → `in_progress` → `closed`): raised by hand or by a failed answer on a question set to raise
 * one, assigned, due and prioritised, and closed with a resolution.
 */

const id = z.string().min(1).max(64);
const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const CorrectiveActionStatus = z.enum(['open', 'in_progress', 'closed']);
export type CorrectiveActionStatus = z.output<typeof CorrectiveActionStatus>;

/** Body of `POST /corrective-actions`. */
export const CorrectiveActionCreate = z
  .strictObject({
    locationId: id,
    title: z.string().trim().min(1).max(200).openapi({ example: 'Replace the cooler door seal' }),
    description: z.string().trim().min(1).max(4000).nullable().optional(),
    priority: CorrectiveActionPriority.default('medium'),
    assigneeId: id.nullable().optional().openapi({ description: 'the employee who is to do it' }),
    dueAt: utcTimestamp('Send dueAt in UTC (Z or +00:00).').nullable().optional(),
    submissionId: id.nullable().optional().openapi({ description: 'the form submission it follows up (its location must be the same)' }),
    questionId: z.string().min(1).max(64).nullable().optional().openapi({ description: 'with submissionId: the question of that submission it follows up' }),
  })
  .openapi('CorrectiveActionCreate');
export type CorrectiveActionCreate = z.output<typeof CorrectiveActionCreate>;

/** Body of `PATCH /corrective-actions/{id}`: only the fields sent change; null clears; `status` = `in_progress` marks work as begun. */
export const CorrectiveActionPatch = z
  .strictObject({
    title: z.string().trim().min(1).max(200).optional(),
    description: z.string().trim().min(1).max(4000).nullable().optional(),
    priority: CorrectiveActionPriority.optional(),
    assigneeId: id.nullable().optional(),
    dueAt: utcTimestamp('Send dueAt in UTC (Z or +00:00).').nullable().optional(),
    status: z.literal('in_progress').optional().openapi({ description: 'the only move a PATCH makes: `open` → `in_progress`; closing is `:close`' }),
  })
  .openapi('CorrectiveActionPatch');
export type CorrectiveActionPatch = z.output<typeof CorrectiveActionPatch>;

/** Body of `POST /corrective-actions/{id}:close`. */
export const CorrectiveActionClose = z
  .strictObject({
    resolution: z.string().trim().min(1).max(4000).openapi({ example: 'Seal replaced; cooler holds 3 °C again.' }),
    attachmentIds: z.array(id).max(20).optional().openapi({ description: 'evidence of the fix (`POST /attachments`)' }),
  })
  .openapi('CorrectiveActionClose');
export type CorrectiveActionClose = z.output<typeof CorrectiveActionClose>;


export const CorrectiveAction = z
  .object({
    id: z.string().openapi({ example: 'cra_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    locationId: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    status: CorrectiveActionStatus,
    priority: CorrectiveActionPriority,
    assigneeId: z.string().nullable(),
    dueAt: Timestamp.nullable(),
    overdue: z.boolean().openapi({ description: 'not closed and past its due time' }),
    source: z.enum(['manual', 'form_submission']).openapi({ description: '`form_submission`: opened by a failed answer' }),
    submissionId: z.string().nullable(),
    formId: z.string().nullable(),
    questionId: z.string().nullable(),
    failureReason: z.string().nullable().openapi({ description: 'why the answer failed, when opened by one' }),
    resolution: z.string().nullable(),
    resolutionAttachmentIds: z.array(z.string()),
    startedAt: Timestamp.nullable(),
    closedAt: Timestamp.nullable(),
    closedBy: Actor.nullable(),
    createdBy: Actor,
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('CorrectiveAction');
export type CorrectiveAction = z.output<typeof CorrectiveAction>;

export const CorrectiveActionListQuery = ListQuery.extend({
  status: CorrectiveActionStatus.optional(),
  locationId: id.optional(),
  overdue: booleanQuery.optional().openapi({ description: '`true`: not closed and past due; `false`: the others' }),
  priority: CorrectiveActionPriority.optional(),
  assigneeId: id.optional(),
  submissionId: id.optional(),
  updatedSince: Timestamp.optional(),
});

export const correctiveActionOperations = {
  'GET /corrective-actions': { query: CorrectiveActionListQuery, response: listEnvelope(CorrectiveAction) },
  'POST /corrective-actions': { body: CorrectiveActionCreate, response: CorrectiveAction, status: 201 },
  'GET /corrective-actions/{id}': { params: IdParam, response: CorrectiveAction },
  'PATCH /corrective-actions/{id}': { params: IdParam, body: CorrectiveActionPatch, response: CorrectiveAction },
  'POST /corrective-actions/{id}:close': { params: IdParam, body: CorrectiveActionClose, response: CorrectiveAction },
};
