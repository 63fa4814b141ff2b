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
  recordEvent,
  replicaLocationErrors,
  resolveEmployees,
  ValidationError,
  type EntityManager,
  type FieldError,
  type ListPage,
  type Principal,
  type ReachSet,
} from '@bop/shared';
import { OperationsCorrectiveAction } from './entities';
import { correctiveActionDto } from './dto';
import { OperationsFormSubmission } from '../submissions/entities';

export interface Caller {
  principal: Principal;
  reach: ReachSet;
  now: Date;
}

/** The field error of an assignee who is unknown, or no longer employed (people's current state decides). */
async function assigneeErrors(em: EntityManager, assigneeId: string | null | undefined, path: string): Promise<FieldError[]> {
  if (!assigneeId) return [];
  const employee = (await resolveEmployees(em, 'operations', [{ employeeId: assigneeId }], { doubt: (e) => e.status !== 'active', payRates: false })).byId.get(assigneeId);
  if (!employee) return [{ path, message: `No employee ${assigneeId}.` }];
  if (employee.status !== 'active') return [{ path, message: `Employee ${assigneeId} is ${employee.status}; assign someone employed.` }];
  return [];
}

const event = (em: EntityManager, type: string, dto: CorrectiveAction, actor: Principal, previous?: Record<string, unknown>) =>
  recordEvent(em, { type, aggregateType: 'corrective_action', aggregateId: dto.id, locationId: dto.locationId, object: dto, previous, actor });

/** `GET /corrective-actions`: oldest first, within the reach; `overdue` as of now. */
export async function listCorrectiveActions(em: EntityManager, q: z.output<typeof CorrectiveActionListQuery>, caller: Caller): Promise<ListPage<CorrectiveAction>> {
  const { limit, cursor, status, locationId, overdue, priority, assigneeId, submissionId } = q;
  const inLocations = locationFilter(caller.reach, locationId);
  const pastDue = { status: { $ne: 'closed' }, dueAt: { $lt: caller.now } } as FilterQuery<OperationsCorrectiveAction>;
  const notPastDue = { $or: [{ status: 'closed' }, { dueAt: null }, { dueAt: { $gte: caller.now } }] } as FilterQuery<OperationsCorrectiveAction>;
  const page = await findPage(
    em,
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
    { limit, cursor },
  );
  return mapPage(page, (a) => correctiveActionDto(a, caller.now));
}

/** `GET /corrective-actions/{id}`: 404 unknown, 403 out of reach. */
export async function readCorrectiveAction(em: EntityManager, id: string, caller: Caller): Promise<CorrectiveAction> {
  const [a] = await findPlain(em, OperationsCorrectiveAction, { id }, { limit: 1 });
  if (!a) throw new NotFound('corrective action', id);
  assertLocationInReach(caller.reach, a.locationId);
  return correctiveActionDto(a, caller.now);
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
  em: EntityManager,
  fields: Pick<OperationsCorrectiveAction, 'locationId' | 'title' | 'description' | 'priority' | 'assigneeId' | 'dueAt' | 'source' | 'submissionId' | 'formId' | 'questionId' | 'failureReason'>,
  principal: Principal,
  at: Date,
): CorrectiveAction {
  const a = em.create(OperationsCorrectiveAction, {
    id: newId('correctiveAction'),
    ...fields,
    status: 'open',
    resolution: null,
    resolutionAttachmentIds: [],
    startedAt: null,
    closedAt: null,
    closedBy: null,
    createdBy: actorOf(principal),
    version: 1,
    createdAt: at,
    updatedAt: at,
  });
  return correctiveActionDto(a, at);
}

/** Opens the corrective actions of a submission's failed answers (flushed, and their `corrective_action.created` recorded, by the caller). */
export function openFromFailedAnswers(em: EntityManager, actions: FailedAnswerAction[], principal: Principal, at: Date): CorrectiveAction[] {
  return actions.map((x) => insertAction(em, { ...x, description: null, assigneeId: null, source: 'form_submission' }, principal, at));
}

/**
 * `POST /corrective-actions` (supplement: → `open`; `corrective_action.created`): at an active
 * location of the reach; the assignee employed; a linked submission at the same location, and a
 * linked question one of its questions.
 */
export async function createCorrectiveAction(em: EntityManager, body: CorrectiveActionCreate, caller: Caller): Promise<CorrectiveAction> {
  assertLocationInReach(caller.reach, body.locationId);
  return em.transactional(async (tem) => {
    const errors = [...(await replicaLocationErrors(tem, 'operations', [{ id: body.locationId, path: 'locationId', takes: 'corrective actions' }])), ...(await assigneeErrors(tem, body.assigneeId, 'assigneeId'))];
    let formId: string | null = null;
    if (body.questionId && !body.submissionId) errors.push({ path: 'questionId', message: 'A question is named with the submission it belongs to (submissionId).' });
    if (body.submissionId) {
      const [s] = await findPlain(tem, OperationsFormSubmission, { id: body.submissionId }, { limit: 1 });
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
    const dto = insertAction(tem, fields, caller.principal, caller.now);
    event(tem, 'corrective_action.created', dto, caller.principal);
    await tem.flush();
    return dto;
  });
}

async function lockedAction(em: EntityManager, id: string, reach: ReachSet): Promise<OperationsCorrectiveAction> {
  const a = await em.findOne(OperationsCorrectiveAction, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!a) throw new NotFound('corrective action', id);
  assertLocationInReach(reach, a.locationId);
  return a;
}

/**
 * `PATCH /corrective-actions/{id}`: title, description, priority, assignee and due date while not
 * closed; `status` = `in_progress` moves an open one on (supplement: `open` → `in_progress`). A closed
 * one is final (409). Nothing sent that differs → nothing written.
 */
export async function patchCorrectiveAction(em: EntityManager, id: string, body: CorrectiveActionPatch, caller: Caller & { checkVersion: (v: number) => void }): Promise<CorrectiveAction> {
  return em.transactional(async (tem) => {
    const a = await lockedAction(tem, id, caller.reach);
    caller.checkVersion(a.version);
    if (a.status === 'closed') throw new Conflict(`Corrective action ${id} is closed; a closed action is final.`);
    const before = correctiveActionDto(a, caller.now);
    if (body.assigneeId !== undefined && body.assigneeId !== (a.assigneeId ?? null)) {
      const errors = await assigneeErrors(tem, body.assigneeId, 'assigneeId');
      if (errors.length > 0) throw new ValidationError(errors);
    }
    if (body.title !== undefined) a.title = body.title;
    if (body.description !== undefined) a.description = body.description;
    if (body.priority !== undefined) a.priority = body.priority;
    if (body.assigneeId !== undefined) a.assigneeId = body.assigneeId;
    if (body.dueAt !== undefined) a.dueAt = body.dueAt === null ? null : new Date(body.dueAt);
    if (body.status === 'in_progress' && a.status === 'open') {
      a.status = 'in_progress';
      a.startedAt = caller.now;
    }
    if (Object.keys(changedFields(before, correctiveActionDto(a, caller.now))).length === 0) return before;
    a.version += 1;
    a.updatedAt = caller.now;
    await tem.flush();
    return correctiveActionDto(a, caller.now);
  });
}

/** `POST /corrective-actions/{id}:close` (supplement: `open` or `in_progress` → `closed`, resolution given; `corrective_action.closed`). */
export async function closeCorrectiveAction(
  em: EntityManager,
  id: string,
  body: CorrectiveActionClose,
  caller: Caller & { checkVersion: (v: number) => void; checkAttachments: (refs: Array<{ id: string; path: string; image: boolean }>) => Promise<FieldError[]> },
): Promise<CorrectiveAction> {
  const attachmentIds = body.attachmentIds ?? [];
  const errors: FieldError[] = [];
  attachmentIds.forEach((x, i) => {
    if (attachmentIds.indexOf(x) !== i) errors.push({ path: `attachmentIds[${i}]`, message: 'Listed twice.' });
  });
  if (errors.length > 0) throw new ValidationError(errors);
  // unknown or out of reach first; the files service is asked before any row is locked
  await readCorrectiveAction(em, id, caller);
  const refused = await caller.checkAttachments(attachmentIds.map((x, i) => ({ id: x, path: `attachmentIds[${i}]`, image: false })));
  if (refused.length > 0) throw new ValidationError(refused);
  return em.transactional(async (tem) => {
    const a = await lockedAction(tem, id, caller.reach);
    caller.checkVersion(a.version);
    if (a.status === 'closed') throw new Conflict(`Corrective action ${id} is already closed.`);
    const before = correctiveActionDto(a, caller.now);
    Object.assign(a, {
      status: 'closed',
      resolution: body.resolution,
      resolutionAttachmentIds: attachmentIds,
      closedAt: caller.now,
      closedBy: actorOf(caller.principal),
      version: a.version + 1,
      updatedAt: caller.now,
    });
    const dto = correctiveActionDto(a, caller.now);
    event(tem, 'corrective_action.closed', dto, caller.principal, changedFields(before, dto));
    await tem.flush();
    return dto;
  });
}
