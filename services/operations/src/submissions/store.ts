import type { Form, FormQuestion, FormSubmission, FormSubmissionCreate, FormSubmissionListQuery, QuestionResult } from '@bop/contracts';
import type { z } from 'zod';
import {
  actorOf,
  assertLocationInReach,
  Conflict,
  contentHash,
  findPage,
  findPlain,
  locationFilter,
  mapPage,
  newId,
  NotFound,
  replicaLocationErrors,
  resolveEmployees,
  ValidationError,
  type ApiError,
  type FieldError,
  type ListPage,
  type Work,
} from '@bop/shared';
import { OperationsFormSubmission } from './entities';
import { submissionDto } from './dto';
import { gradeSubmission } from './grading';
import { attachmentErrors } from './files-link';
import { questionsOf } from '../forms/form-definition';
import { formToAnswer } from '../forms/store';
import { openFromFailedAnswers, type FailedAnswerAction } from '../corrective-actions/store';
import { auditDto } from '../audits/dto';

/** A completion time this far ahead of the service's clock is still accepted (device clocks drift). */
const CLOCK_SKEW_MS = 5 * 60_000;
const HOUR_MS = 3_600_000;

const RACED: Record<string, { path: string; detail: string }> = {
  form_submissions_external_id_uq: { path: 'externalId', detail: 'Another submission already has this externalId.' },
};

export function submissionConflictFor(constraint: string | undefined): ApiError {
  const raced = constraint === undefined ? undefined : RACED[constraint];
  if (!raced) return new Conflict('Another submission was written at the same time; send the request again.');
  return new Conflict(raced.detail, [{ path: raced.path, message: 'Already used by another submission.' }]);
}

/** The submission stored under a device's externalId: the same content answers it again; other content is a 409. */
async function earlierSending(w: Work, externalId: string | null | undefined, hash: string): Promise<FormSubmission | null> {
  if (!externalId) return null;
  const [stored] = await findPlain(w.em, OperationsFormSubmission, { externalId }, { limit: 1 });
  if (!stored) return null;
  if (stored.contentHash !== hash) {
    throw new Conflict(`Submission ${stored.id} was sent with externalId ${externalId} and other content; a submission is final.`, [{ path: 'externalId', message: `Already used by submission ${stored.id}.` }]);
  }
  return submissionDto(stored);
}

/** The form version answered, and the errors of where, when and by whom it was completed. */
async function checkContext(w: Work, body: FormSubmissionCreate): Promise<{ form: Form; errors: FieldError[] }> {
  const errors: FieldError[] = [];
  const completedAt = Date.parse(body.completedAt);
  if (completedAt > w.now.getTime() + CLOCK_SKEW_MS) errors.push({ path: 'completedAt', message: `Must not be in the future (it is now ${w.now.toISOString()}).` });
  if (body.startedAt && Date.parse(body.startedAt) > completedAt) errors.push({ path: 'startedAt', message: 'Must not be after completedAt.' });
  errors.push(...(await replicaLocationErrors(w, [{ id: body.locationId, path: 'locationId', takes: 'form submissions' }])));
  const employeeId = body.completedByEmployeeId ?? null;
  if (employeeId && !(await resolveEmployees(w, [{ employeeId }], { payRates: false })).byId.has(employeeId)) {
    errors.push({ path: 'completedByEmployeeId', message: `No employee ${employeeId}.` });
  }
  const found = await formToAnswer(w, body.formId, body.formVersion);
  if ('error' in found) throw new ValidationError([found.error, ...errors]);
  const { current, answered } = found;
  // an offline device may send what it completed before the form was archived
  if (current.status === 'archived' && current.archivedAt && new Date(current.archivedAt).getTime() <= completedAt) {
    errors.push({ path: 'formId', message: `Form ${current.id} was archived at ${new Date(current.archivedAt).toISOString()}; it takes no submissions completed after that.` });
  }
  if (answered.locationIds.length > 0 && !answered.locationIds.includes(body.locationId)) {
    errors.push({ path: 'locationId', message: `Version ${answered.version} of form ${answered.id} is not used at location ${body.locationId}.` });
  }
  return { form: answered, errors };
}

/** The corrective action a failed answer opens, when its question is set to raise one. */
function actionFor(q: FormQuestion, r: QuestionResult, ctx: { submissionId: string; formId: string; locationId: string; completedAt: Date }): FailedAnswerAction | null {
  if (r.outcome !== 'failed' || !q.correctiveAction) return null;
  const { priority, dueWithinHours } = q.correctiveAction;
  return {
    locationId: ctx.locationId,
    title: q.text.length > 200 ? `${q.text.slice(0, 199)}…` : q.text,
    priority,
    dueAt: dueWithinHours === null ? null : new Date(ctx.completedAt.getTime() + dueWithinHours * HOUR_MS),
    submissionId: ctx.submissionId,
    formId: ctx.formId,
    questionId: q.id,
    failureReason: r.reason,
  };
}

/**
 * `POST /form-submissions` (spec: Forms; mapping: `form.submitted` always, `form.answer_failed` per
 * failed answer, `corrective_action.created` per failed answer on a question set to raise one,
 * `audit.completed` for an audit form). Judged against the form version answered; `completedAt` kept
 * as sent. A device's `externalId` sent again with the same content answers the stored submission
 * (200, nothing new).
 */
export async function submitForm(w: Work, body: FormSubmissionCreate): Promise<{ status: number; submission: FormSubmission }> {
  assertLocationInReach(w.reach(), body.locationId);
  const hash = contentHash(body as unknown as Record<string, unknown>);
  // a race lost to the same sending runs the unit again, and lands here
  const again = await earlierSending(w, body.externalId, hash);
  if (again) return { status: 200, submission: again };

  const { form, errors } = await checkContext(w, body);
  const grading = gradeSubmission(form, body.answers);
  errors.push(...grading.errors);
  if (errors.length > 0) throw new ValidationError(errors);
  // the files service's verdict on the attachments the answers name
  const refused = await attachmentErrors(w, grading.attachments);
  if (refused.length > 0) throw new ValidationError(refused);

  const id = newId('formSubmission');
  const completedAt = new Date(body.completedAt);
  const questions = new Map(questionsOf(form.sections).map((x) => [x.question.id, x.question]));
  const ctx = { submissionId: id, formId: form.id, locationId: body.locationId, completedAt };
  const opened = new Map<string, FailedAnswerAction>();
  for (const r of grading.results) {
    const action = actionFor(questions.get(r.questionId)!, r, ctx);
    if (action) opened.set(r.questionId, action);
  }
  const actions = openFromFailedAnswers(w, [...opened.values()]);
  const actionOf = new Map(actions.map((a) => [a.questionId!, a.id]));
  const results = grading.results.map((r) => ({ ...r, correctiveActionId: actionOf.get(r.questionId) ?? null }));
  const s = grading.score;
  const row = w.em.create(OperationsFormSubmission, {
    id,
    externalId: body.externalId ?? null,
    formId: form.id,
    formName: form.name,
    formKind: form.kind,
    formVersion: form.version,
    locationId: body.locationId,
    startedAt: body.startedAt ? new Date(body.startedAt) : null,
    completedAt,
    completedByEmployeeId: body.completedByEmployeeId ?? w.actor.employeeId ?? null,
    submittedBy: actorOf(w.actor),
    note: body.note ?? null,
    scored: form.scored,
    score: s.score,
    points: s.points,
    maxPoints: s.maxPoints,
    passMark: form.passMark,
    passed: s.passed,
    failedCount: s.failedCount,
    criticalFailed: s.criticalFailed,
    sectionScores: s.sectionScores,
    results,
    correctiveActionIds: actions.map((a) => a.id),
    contentHash: hash,
    createdAt: w.now,
  });
  await w.em.flush();
  const dto = submissionDto(row);
  const on = { aggregateType: 'form_submission', aggregateId: id, locationId: body.locationId };
  const context = { submissionId: id, formId: form.id, formName: form.name, formKind: form.kind, formVersion: form.version, locationId: body.locationId, completedAt: dto.completedAt, completedByEmployeeId: dto.completedByEmployeeId };
  w.emit({ ...on, type: 'form.submitted', object: dto });
  for (const r of results) if (r.outcome === 'failed') w.emit({ ...on, type: 'form.answer_failed', object: { ...context, ...r } });
  for (const a of actions) w.emit({ type: 'corrective_action.created', aggregateType: 'corrective_action', aggregateId: a.id, locationId: a.locationId, object: a });
  if (form.kind === 'audit') w.emit({ ...on, type: 'audit.completed', object: auditDto(row) });
  return { status: 201, submission: dto };
}

/** A submission within the reach: 404 unknown, 403 at a location out of reach. */
export async function readSubmission(w: Work, id: string): Promise<OperationsFormSubmission> {
  const [s] = await findPlain(w.em, OperationsFormSubmission, { id }, { limit: 1 });
  if (!s) throw new NotFound('form submission', id);
  assertLocationInReach(w.reach(), s.locationId);
  return s;
}

export interface SubmissionFilters {
  formId?: string;
  kind?: string;
  locationId?: string;
  completedByEmployeeId?: string;
  from?: string;
  to?: string;
  passed?: boolean;
}

/** The submissions (oldest first) of a list of submissions or audits, within the reach. */
export async function pageOfSubmissions(w: Work, f: SubmissionFilters, page: { limit?: number; cursor?: string }): Promise<ListPage<OperationsFormSubmission>> {
  const inLocations = locationFilter(w.reach(), f.locationId);
  return findPage(
    w.em,
    OperationsFormSubmission,
    [
      f.formId && { formId: f.formId },
      f.kind && { formKind: f.kind as never },
      inLocations && { locationId: inLocations },
      f.completedByEmployeeId && { completedByEmployeeId: f.completedByEmployeeId },
      f.from && { completedAt: { $gte: new Date(f.from) } },
      f.to && { completedAt: { $lt: new Date(f.to) } },
      f.passed !== undefined && { passed: f.passed },
    ],
    page,
  );
}

/** `GET /form-submissions`. */
export async function listSubmissions(w: Work, q: z.output<typeof FormSubmissionListQuery>): Promise<ListPage<FormSubmission>> {
  const { limit, cursor, ...filters } = q;
  return mapPage(await pageOfSubmissions(w, filters, { limit, cursor }), submissionDto);
}
