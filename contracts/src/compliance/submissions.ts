import { z } from '../zod';
import { Actor, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { utcTimestamp } from '../sales/transactions';
import { FormKey, FormKind, QuestionType, TemperatureUnit } from './forms';

/**
 * Form submissions (spec: Forms, checklists and compliance): a completed form, checklist or audit.
 * Each answer is judged by its question's rule (pass or fail, with the reason); scored forms get a
 * score and section scores. A submission is final; it keeps the form version it answered and the
 * time it was completed as sent (an offline device may send it later).
 */

const id = z.string().min(1).max(64);
const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

/** One answer as sent; which fields it needs depends on the question's type. */
export const AnswerInput = z
  .strictObject({
    questionId: FormKey,
    value: z
      .union([z.boolean(), z.string().max(4000), z.array(z.string().min(1).max(100)).max(50)])
      .nullable()
      .optional()
      .openapi({
        description:
          'yes_no: true or false; number and temperature: a decimal string; text: the text; single_choice: an option value; multiple_choice: option values; photo and signature: none (see attachmentIds)',
      }),
    unit: TemperatureUnit.optional().openapi({ description: 'temperature only: the unit of `value` when it is not the question\'s (converted before judging)' }),
    attachmentIds: z.array(id).max(20).optional().openapi({ description: 'photo and signature: the uploaded attachments (`POST /attachments`); other types: evidence' }),
    notApplicable: z.boolean().optional().openapi({ description: 'the question does not apply (only where the question allows it); left out of the score' }),
    comment: z.string().trim().min(1).max(2000).nullable().optional(),
  })
  .openapi('AnswerInput');
export type AnswerInput = z.output<typeof AnswerInput>;

/** Body of `POST /form-submissions`. */
export const FormSubmissionCreate = z
  .strictObject({
    formId: id,
    formVersion: z.number().int().min(1).max(1_000_000).optional().openapi({ description: 'the version the device answered (kept, and judged by); default: the current version' }),
    locationId: id,
    externalId: z.string().trim().min(1).max(200).nullable().optional().openapi({
      description: 'the device\'s id of this submission: the same submission sent again answers the stored one (no second submission); different content under it is a 409',
    }),
    startedAt: utcTimestamp('Send startedAt in UTC (Z or +00:00).').nullable().optional(),
    completedAt: utcTimestamp('Send completedAt in UTC (Z or +00:00).').openapi({ description: 'when it was completed, kept as sent (an offline device may send it later); not in the future' }),
    completedByEmployeeId: id.nullable().optional().openapi({ description: 'who completed it; default: the calling person\'s employee record, if any' }),
    note: z.string().trim().min(1).max(2000).nullable().optional(),
    answers: z.array(AnswerInput).max(1000),
  })
  .openapi('FormSubmissionCreate');
export type FormSubmissionCreate = z.output<typeof FormSubmissionCreate>;

export const AnswerOutcome = z.enum(['passed', 'failed', 'answered', 'not_applicable', 'unanswered']);
export type AnswerOutcome = z.output<typeof AnswerOutcome>;

export const SubmittedAnswer = z.object({
  value: z.union([z.boolean(), z.string(), z.array(z.string())]).nullable(),
  unit: TemperatureUnit.nullable(),
  attachmentIds: z.array(z.string()),
  notApplicable: z.boolean(),
  comment: z.string().nullable(),
});
export type SubmittedAnswer = z.output<typeof SubmittedAnswer>;

export const QuestionResult = z
  .object({
    questionId: z.string(),
    sectionId: z.string(),
    text: z.string(),
    type: QuestionType,
    required: z.boolean(),
    critical: z.boolean(),
    weight: z.string(),
    answer: SubmittedAnswer.nullable(),
    outcome: AnswerOutcome.openapi({ description: '`answered`: answered, and the question has no rule to pass or fail it' }),
    reason: z.string().openapi({ example: '7.5 °C is above the maximum 5 °C.' }),
    scored: z.boolean().openapi({ description: 'counted in the score' }),
    points: z.string().nullable().openapi({ description: 'scored forms: the weight earned (the weight when passed, 0 when failed); null when not scored' }),
    correctiveActionId: z.string().nullable(),
  })
  .openapi('QuestionResult');
export type QuestionResult = z.output<typeof QuestionResult>;

export const SectionScore = z
  .object({
    sectionId: z.string(),
    title: z.string(),
    score: z.string().nullable().openapi({ description: 'percent of the section\'s scored weight earned; null when nothing in it was scored' }),
    points: z.string().nullable().openapi({ description: 'scored forms: the weight earned; null otherwise' }),
    maxPoints: z.string().nullable().openapi({ description: 'scored forms: the weight of the section\'s scored answers; null otherwise' }),
    failedCount: z.number().int(),
  })
  .openapi('SectionScore');
export type SectionScore = z.output<typeof SectionScore>;


const scoreFields = {
  scored: z.boolean(),
  score: z.string().nullable().openapi({ description: 'percent of the scored weight earned (2 decimals); null when not scored or nothing was scored', example: '87.5' }),
  points: z.string().nullable(),
  maxPoints: z.string().nullable(),
  passMark: z.string().nullable(),
  passed: z.boolean().openapi({ description: 'no critical question failed, and the score reached the pass mark (scored forms with a pass mark) or no question failed (the others)' }),
  failedCount: z.number().int(),
  criticalFailed: z.boolean(),
  sectionScores: z.array(SectionScore),
};

export const FormSubmission = z
  .object({
    id: z.string().openapi({ example: 'fsb_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    externalId: z.string().nullable(),
    formId: z.string(),
    formName: z.string(),
    formKind: FormKind,
    formVersion: z.number().int(),
    locationId: z.string(),
    startedAt: Timestamp.nullable(),
    completedAt: Timestamp,
    submittedAt: Timestamp.openapi({ description: 'when the service received it' }),
    completedByEmployeeId: z.string().nullable(),
    submittedBy: Actor,
    note: z.string().nullable(),
    ...scoreFields,
    results: z.array(QuestionResult),
    correctiveActionIds: z.array(z.string()),
    createdAt: Timestamp,
  })
  .openapi('FormSubmission');
export type FormSubmission = z.output<typeof FormSubmission>;

export const FormSubmissionListQuery = ListQuery.extend({
  formId: id.optional(),
  kind: FormKind.optional(),
  locationId: id.optional(),
  completedByEmployeeId: id.optional(),
  from: Timestamp.optional().openapi({ description: 'completed at or after' }),
  to: Timestamp.optional().openapi({ description: 'completed before' }),
  passed: booleanQuery.optional(),
});

/** A failed item of an audit: the question, the answer and why it failed. */
export const AuditFailedItem = z
  .object({
    questionId: z.string(),
    sectionId: z.string(),
    sectionTitle: z.string(),
    text: z.string(),
    critical: z.boolean(),
    weight: z.string(),
    answer: SubmittedAnswer.nullable(),
    reason: z.string(),
    correctiveActionId: z.string().nullable(),
  })
  .openapi('AuditFailedItem');

/** A scored audit: a submission of an audit form, with its section scores and failed items. */
export const Audit = z
  .object({
    id: z.string().openapi({ description: 'the submission\'s id', example: 'fsb_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    formId: z.string(),
    formName: z.string(),
    formVersion: z.number().int(),
    locationId: z.string(),
    completedAt: Timestamp,
    submittedAt: Timestamp,
    completedByEmployeeId: z.string().nullable(),
    submittedBy: Actor,
    ...scoreFields,
    failedItems: z.array(AuditFailedItem),
    correctiveActionIds: z.array(z.string()),
  })
  .openapi('Audit');
export type Audit = z.output<typeof Audit>;

export const AuditListQuery = ListQuery.extend({
  formId: id.optional(),
  locationId: id.optional(),
  from: Timestamp.optional().openapi({ description: 'completed at or after' }),
  to: Timestamp.optional().openapi({ description: 'completed before' }),
  passed: booleanQuery.optional(),
});

/** `data.object` of `form.answer_failed`: one failed answer of a submission. */
export const FormAnswerFailedEventObject = z.object({
  submissionId: z.string(),
  formId: z.string(),
  formName: z.string(),
  formKind: FormKind,
  formVersion: z.number().int(),
  locationId: z.string(),
  completedAt: Timestamp,
  completedByEmployeeId: z.string().nullable(),
  ...QuestionResult.shape,
});
export type FormAnswerFailedEventObject = z.output<typeof FormAnswerFailedEventObject>;

export const submissionOperations = {
  'GET /form-submissions': { query: FormSubmissionListQuery, response: listEnvelope(FormSubmission) },
  'POST /form-submissions': { body: FormSubmissionCreate, response: FormSubmission, status: 201, alsoStatuses: [200] },
  'GET /form-submissions/{id}': { params: IdParam, response: FormSubmission },
  'GET /audits': { query: AuditListQuery, response: listEnvelope(Audit) },
  'GET /audits/{id}': { params: IdParam, response: Audit },
};
