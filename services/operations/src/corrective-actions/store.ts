import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { CorrectiveAction, CorrectiveActionClose, CorrectiveActionCreate, CorrectiveActionListQuery, CorrectiveActionPatch, CorrectiveActionPriority } from '@bop/contracts';
import type { z } from 'zod';
import {
  actorOf,
  assertLocationInReach,
  changedFields,
  Conflict,
  findPage,
  findPlain,
  locationFilter,
  mapPage,
  newId,
  NotFound,
  replicaLocationErrors,
  resolveEmployees,
  ValidationError,
  type FieldError,
  type ListPage,
  type Work,
} from '@bop/shared';
import { OperationsCorrectiveAction } from './entities';
import { correctiveActionDto } from './dto';
import { OperationsFormSubmission } from '../submissions/entities';
import { attachmentErrors } from '../submissions/files-link';

/** The field error of an assignee who is unknown, or no longer employed (people's current state decides). */
async function assigneeErrors(w: Work, assigneeId: string | null | undefined, path: string): Promise<FieldError[]> {
  if (!assigneeId) return [];
  const employee = (await resolveEmployees(w, [{ employeeId: assigneeId }], { doubt: (e) => e.status !== 'active', payRates: false })).byId.get(assigneeId);
  if (!employee) return [{ path, message: `No employee ${assigneeId}.` }];
  if (employee.status !== 'active') return [{ path, message: `Employee ${assigneeId} is ${employee.status}; assign someone employed.` }];
  return [];
}

const event = (w: Work, type: string, dto: CorrectiveAction, previous?: Record<string, unknown>) =>
  w.emit({ type, aggregateType: 'corrective_action', aggregateId: dto.id, locationId: dto.locationId, object: dto, previous });

/** `GET /corrective-actions`: oldest first, within the reach; `overdue` as of now. */
export async function listCorrectiveActions(w: Work, q: z.output<typeof CorrectiveActionListQuery>): Promise<ListPage<CorrectiveAction>> {
  const { limit, cursor, updatedSince, status, locationId, overdue, priority, assigneeId, submissionId } = q;
  const inLocations = locationFilter(w.reach(), locationId);
  const pastDue = { status: { $ne: 'closed' }, dueAt: { $lt: w.now } } as FilterQuery<OperationsCorrectiveAction>;
  const notPastDue = { $or: [{ status: 'closed' }, { dueAt: null }, { dueAt: { $gte: w.now } }] } as FilterQuery<OperationsCorrectiveAction>;
  const page = await findPage(
    w.em,
    OperationsCorrectiveAction,
    [
      status && { status },
      inLocations && { locationId: inLocations },
      overdue === true && pastDue,
      overdue === false && notPastDue,
      priority && { priority },
      assigneeId && { assigneeId },
      submissionId && { submissionId },
    ],
    { limit, cursor, updatedSince },
  );
  return mapPage(page, (a) => correctiveActionDto(a, w.now));
}

/** `GET /corrective-actions/{id}`: 404 unknown, 403 out of reach. */
export async function readCorrectiveAction(w: Work, id: string): Promise<CorrectiveAction> {
  const [a] = await findPlain(w.em, OperationsCorrectiveAction, { id }, { limit: 1 });
  if (!a) throw new NotFound('corrective action', id);
  assertLocationInReach(w.reach(), a.locationId);
  return correctiveActionDto(a, w.now);
}

/** What a failed answer opens (spec: a failed answer on a question set to raise one), inside the submission's transaction. */
export interface FailedAnswerAction {
  locationId: string;
  title: string;
  priority: CorrectiveActionPriority;
  dueAt: Date | null;
  submissionId: string;
  formId: string;
  questionId: string;
  failureReason: string;
}

function insertAction(
  w: Work,
  fields: Pick<OperationsCorrectiveAction, 'locationId' | 'title' | 'description' | 'priority' | 'assigneeId' | 'dueAt' | 'source' | 'submissionId' | 'formId' | 'questionId' | 'failureReason'>,
): CorrectiveAction {
  const at = w.now;
  const a = w.em.create(OperationsCorrectiveAction, {
    id: newId('correctiveAction'),
    ...fields,
    status: 'open',
    resolution: null,
    resolutionAttachmentIds: [],
    startedAt: null,
    closedAt: null,
    closedBy: null,
    createdBy: actorOf(w.actor),
    version: 1,
    createdAt: at,
    updatedAt: at,
  });
  return correctiveActionDto(a, at);
}

/** Opens the corrective actions of a submission's failed answers (flushed, and their `corrective_action.created` recorded, by the caller). */
export function openFromFailedAnswers(w: Work, actions: FailedAnswerAction[]): CorrectiveAction[] {
  return actions.map((x) => insertAction(w, { ...x, description: null, assigneeId: null, source: 'form_submission' }));
}

/**
 * `POST /corrective-actions` (supplement: → `open`; `corrective_action.created`): at an active
 * location of the reach; the assignee employed; a linked submission at the same location, and a
 * linked question one of its questions.
 */
export async function createCorrectiveAction(w: Work, body: CorrectiveActionCreate): Promise<CorrectiveAction> {
  assertLocationInReach(w.reach(), body.locationId);
  const errors = [...(await replicaLocationErrors(w, [{ id: body.locationId, path: 'locationId', takes: 'corrective actions' }])), ...(await assigneeErrors(w, body.assigneeId, 'assigneeId'))];
  let formId: string | null = null;
  if (body.questionId && !body.submissionId) errors.push({ path: 'questionId', message: 'A question is named with the submission it belongs to (submissionId).' });
  if (body.submissionId) {
    const [s] = await findPlain(w.em, OperationsFormSubmission, { id: body.submissionId }, { limit: 1 });
    if (!s) errors.push({ path: 'submissionId', message: `No form submission ${body.submissionId}.` });
    else {
      formId = s.formId;
      if (s.locationId !== body.locationId) errors.push({ path: 'submissionId', message: `Form submission ${s.id} is at location ${s.locationId}, not ${body.locationId}.` });
      if (body.questionId && !s.results.some((r) => r.questionId === body.questionId)) errors.push({ path: 'questionId', message: `Form submission ${s.id} has no question ${body.questionId}.` });
    }
  }
  if (errors.length > 0) throw new ValidationError(errors);
  const fields = {
    locationId: body.locationId,
    title: body.title,
    description: body.description ?? null,
    priority: body.priority,
    assigneeId: body.assigneeId ?? null,
    dueAt: body.dueAt ? new Date(body.dueAt) : null,
    source: 'manual' as const,
    submissionId: body.submissionId ?? null,
    formId,
    questionId: body.questionId ?? null,
    failureReason: null,
  };
  const dto = insertAction(w, fields);
  event(w, 'corrective_action.created', dto);
  await w.em.flush();
  return dto;
}

async function lockedAction(w: Work, id: string): Promise<OperationsCorrectiveAction> {
  const a = await w.em.findOne(OperationsCorrectiveAction, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!a) throw new NotFound('corrective action', id);
  assertLocationInReach(w.reach(), a.locationId);
  return a;
}

/**
 * `PATCH /corrective-actions/{id}`: title, description, priority, assignee and due date while not
 * closed; `status` = `in_progress` moves an open one on (supplement: `open` → `in_progress`). A closed
 * one is final (409). Nothing sent that differs → nothing written.
 */
export async function patchCorrectiveAction(w: Work, id: string, body: CorrectiveActionPatch): Promise<CorrectiveAction> {
  const a = await lockedAction(w, id);
  w.checkVersion(a.version);
  if (a.status === 'closed') throw new Conflict(`Corrective action ${id} is closed; a closed action is final.`);
  const before = correctiveActionDto(a, w.now);
  if (body.assigneeId !== undefined && body.assigneeId !== (a.assigneeId ?? null)) {
    const errors = await assigneeErrors(w, body.assigneeId, 'assigneeId');
    if (errors.length > 0) throw new ValidationError(errors);
  }
  if (body.title !== undefined) a.title = body.title;
  if (body.description !== undefined) a.description = body.description;
  if (body.priority !== undefined) a.priority = body.priority;
  if (body.assigneeId !== undefined) a.assigneeId = body.assigneeId;
  if (body.dueAt !== undefined) a.dueAt = body.dueAt === null ? null : new Date(body.dueAt);
  if (body.status === 'in_progress' && a.status === 'open') {
    a.status = 'in_progress';
    a.startedAt = w.now;
  }
  if (Object.keys(changedFields(before, correctiveActionDto(a, w.now))).length === 0) return before;
  a.version += 1;
  a.updatedAt = w.now;
  await w.em.flush();
  const after = correctiveActionDto(a, w.now);
  // the project's own public type (issue 41 item 3): the action as the API returns it, data.previous what changed
  event(w, 'corrective_action.updated', after, changedFields(before, after));
  return after;
}

/** `POST /corrective-actions/{id}:close` (supplement: `open` or `in_progress` → `closed`, resolution given; `corrective_action.closed`). */
export async function closeCorrectiveAction(w: Work, id: string, body: CorrectiveActionClose): Promise<CorrectiveAction> {
  const attachmentIds = body.attachmentIds ?? [];
  const errors: FieldError[] = [];
  attachmentIds.forEach((x, i) => {
    if (attachmentIds.indexOf(x) !== i) errors.push({ path: `attachmentIds[${i}]`, message: 'Listed twice.' });
  });
  if (errors.length > 0) throw new ValidationError(errors);
  // unknown or out of reach first; the files service is asked before any row is locked
  await readCorrectiveAction(w, id);
  const refused = await attachmentErrors(w, attachmentIds.map((x, i) => ({ id: x, path: `attachmentIds[${i}]`, image: false })));
  if (refused.length > 0) throw new ValidationError(refused);
  const a = await lockedAction(w, id);
  w.checkVersion(a.version);
  if (a.status === 'closed') throw new Conflict(`Corrective action ${id} is already closed.`);
  const before = correctiveActionDto(a, w.now);
  Object.assign(a, {
    status: 'closed',
    resolution: body.resolution,
    resolutionAttachmentIds: attachmentIds,
    closedAt: w.now,
    closedBy: actorOf(w.actor),
    version: a.version + 1,
    updatedAt: w.now,
  });
  const dto = correctiveActionDto(a, w.now);
  event(w, 'corrective_action.closed', dto, changedFields(before, dto));
  await w.em.flush();
  return dto;
}
