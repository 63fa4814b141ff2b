import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { FormKind, QuestionResult, SectionScore } from '@bop/contracts';

type Actor = { type: 'user' | 'integration' | 'system' | 'employee'; id: string | null };

/**
 * A completed form (final): the form version it answered, each answer's result by its question's
 * rule, and for scored forms the score and section scores. An audit is a submission of an audit form.
 */
export const OperationsFormSubmission = defineEntity({
  name: 'OperationsFormSubmission',
  tableName: 'form_submissions',
  properties: {
    id: p.string().primary(),
    externalId: p.string().nullable(),
    formId: p.string(),
    formName: p.string(),
    formKind: p.string().$type<FormKind>(),
    formVersion: p.integer(),
    locationId: p.string(),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime(),
    completedByEmployeeId: p.string().nullable(),
    submittedBy: p.json<Actor>(),
    note: p.string().nullable(),
    scored: p.boolean(),
    score: p.decimal('string').nullable(),
    points: p.decimal('string').nullable(),
    maxPoints: p.decimal('string').nullable(),
    passMark: p.decimal('string').nullable(),
    passed: p.boolean(),
    failedCount: p.integer(),
    criticalFailed: p.boolean(),
    sectionScores: p.json<SectionScore[]>(),
    results: p.json<QuestionResult[]>(),
    correctiveActionIds: p.array().$type<string[]>(),
    contentHash: p.string(),
    createdAt: p.datetime(),
  },
});
export type OperationsFormSubmission = InferEntity<typeof OperationsFormSubmission>;
