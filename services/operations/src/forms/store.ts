import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { Form, FormCreate, FormKind, FormListQuery, FormPatch, FormReplace, FormSection, FormState, FormStatus } from '@bop/contracts';
import type { z } from 'zod';
import {
  actorOf,
  canonicalJson,
  changedFields,
  Conflict,
  findPage,
  findPlain,
  lockForTransaction,
  mapPage,
  newId,
  NotFound,
  OutOfReach,
  reachableLocationIds,
  replicaLocationErrors,
  ValidationError,
  type ApiError,
  type EntityManager,
  type FieldError,
  type ListPage,
  type ReachSet,
  type Work,
} from '@bop/shared';
import { OperationsForm, OperationsFormVersion } from './entities';
import { formDto } from './dto';
import { normalizeDefinition, questionsOf } from './form-definition';
import { OperationsFormSubmission } from '../submissions/entities';

/** What a form write sets (create, replace and patch all end here); sections as sent, normalised on write. */
interface FormFields {
  externalId: string | null;
  name: string;
  description: string | null;
  kind: FormKind;
  scored: boolean | undefined;
  passMark: string | null;
  locationIds: string[];
  sections: FormCreate['sections'] | FormSection[];
  status: FormStatus;
}

const createFields = (b: FormCreate): FormFields => ({
  externalId: b.externalId ?? null,
  name: b.name,
  description: b.description ?? null,
  kind: b.kind,
  scored: b.scored,
  passMark: b.passMark ?? null,
  locationIds: b.locationIds ?? [],
  sections: b.sections,
  status: 'active',
});

/** PUT: the whole form; an absent `status` keeps the stored one (a sync never revives an archived form). */
const replaceFields = (b: FormReplace, externalId: string, stored: OperationsForm | null): FormFields => ({
  ...createFields({ ...b, externalId }),
  status: b.status ?? stored?.status ?? 'active',
});

/** PATCH: only the fields sent change; null clears. */
function patchFields(f: OperationsForm, b: FormPatch): FormFields {
  const pick = <T>(sent: T | undefined, stored: T): T => (sent === undefined ? stored : sent);
  return {
    externalId: pick(b.externalId, f.externalId ?? null),
    name: pick(b.name, f.name),
    description: pick(b.description, f.description ?? null),
    kind: pick(b.kind, f.kind),
    // a form made an audit is scored unless the patch says otherwise (and is then refused)
    scored: b.scored !== undefined ? b.scored : b.kind === 'audit' ? true : f.scored,
    passMark: pick(b.passMark, f.passMark ?? null),
    locationIds: pick(b.locationIds, f.locationIds),
    sections: pick(b.sections, f.sections),
    status: pick(b.status, f.status),
  };
}

/** The stored columns a write gives: the definition normalised (ids, defaults), or 422 with the body's field paths. */
function columnsOf(fields: FormFields) {
  const { definition, errors } = normalizeDefinition({ kind: fields.kind, scored: fields.scored, passMark: fields.passMark, sections: fields.sections });
  const seen = new Set<string>();
  fields.locationIds.forEach((id, i) => {
    if (seen.has(id)) errors.push({ path: `locationIds[${i}]`, message: 'Listed twice.' });
    seen.add(id);
  });
  if (errors.length > 0) throw new ValidationError(errors);
  return {
    externalId: fields.externalId,
    name: fields.name,
    description: fields.description,
    kind: fields.kind,
    scored: definition.scored,
    passMark: definition.passMark,
    locationIds: fields.locationIds,
    sections: definition.sections,
    questionCount: questionsOf(definition.sections).length,
    status: fields.status,
  };
}
type FormColumns = ReturnType<typeof columnsOf>;

const RACED: Record<string, { path: string; detail: string }> = {
  forms_external_id_uq: { path: 'externalId', detail: 'Another form already has this externalId.' },
};

/** The 409 of a unique index that fired in a race the checks lost twice. */
export function formConflictFor(constraint: string | undefined): ApiError {
  const raced = constraint === undefined ? undefined : RACED[constraint];
  if (!raced) return new Conflict('Another form was written at the same time; send the request again.');
  return new Conflict(raced.detail, [{ path: raced.path, message: 'Already used by another form.' }]);
}

/** 422 for newly listed locations that are unknown or archived; 409 for an externalId another form holds, or a kind change once answered. */
async function assertWritable(w: Work, next: FormColumns, stored: OperationsForm | null): Promise<void> {
  const newlyListed = next.locationIds.map((id, i) => ({ id, path: `locationIds[${i}]`, takes: 'forms' })).filter((r) => !(stored?.locationIds ?? []).includes(r.id));
  if (newlyListed.length > 0) {
    const errors = await replicaLocationErrors(w, newlyListed);
    if (errors.length > 0) throw new ValidationError(errors);
  }
  if (next.externalId !== null && next.externalId !== (stored?.externalId ?? null)) {
    const [other] = await findPlain(w.em, OperationsForm, { externalId: next.externalId, id: { $ne: stored?.id ?? '' } }, { limit: 1 });
    if (other) throw new Conflict(`Form ${other.id} already has externalId ${next.externalId}.`, [{ path: 'externalId', message: `Already used by form ${other.id}.` }]);
  }
  if (stored && next.kind !== stored.kind) {
    const [answered] = await findPlain(w.em, OperationsFormSubmission, { formId: stored.id }, { limit: 1 });
    if (answered) {
      throw new Conflict(`Form ${stored.id} has submissions as a ${stored.kind}; its kind cannot change. Create a new form instead.`, [{ path: 'kind', message: 'Cannot change once the form has submissions.' }]);
    }
  }
}

function keepVersion(em: EntityManager, form: OperationsForm): Form {
  const dto = formDto(form);
  em.create(OperationsFormVersion, { formId: form.id, version: form.version, snapshot: dto, createdAt: form.updatedAt });
  return dto;
}

/**
 * The form's change events (the project's own public types, issue 41 item 3): data.object the form as the API
 * returns it; company-wide (a form names the locations it is used at, or none: everywhere).
 */
const formEvent = (w: Work, type: 'form.created' | 'form.updated' | 'form.archived', dto: Form, previous?: Record<string, unknown>) =>
  w.emit({ type, aggregateType: 'form', aggregateId: dto.id, locationId: null, object: dto, ...(previous ? { previous } : {}) });

async function createForm(w: Work, fields: FormFields): Promise<Form> {
  const columns = columnsOf(fields);
  await assertWritable(w, columns, null);
  const form = w.em.create(OperationsForm, {
    id: newId('form'),
    ...columns,
    archivedAt: columns.status === 'archived' ? w.now : null,
    version: 1,
    createdAt: w.now,
    updatedAt: w.now,
    actor: actorOf(w.actor),
  });
  // the form's row before its first version's (which references it)
  await w.em.flush();
  const dto = keepVersion(w.em, form);
  await w.em.flush();
  formEvent(w, 'form.created', dto);
  return dto;
}

/** Replaces a locked form's fields: the same content → nothing written (no new version); else a new version. */
async function updateForm(w: Work, form: OperationsForm, fields: FormFields): Promise<Form> {
  const next = columnsOf(fields);
  const { id: _id, archivedAt: _at, version: _v, createdAt: _c, updatedAt: _u, ...current } = formDto(form);
  if (canonicalJson(current) === canonicalJson(next)) return formDto(form);
  w.checkVersion(form.version);
  await assertWritable(w, next, form);
  const before = formDto(form);
  const archivedAt = next.status !== 'archived' ? null : (form.archivedAt ?? w.now);
  Object.assign(form, { ...next, archivedAt, version: form.version + 1, updatedAt: w.now, actor: actorOf(w.actor) });
  const dto = keepVersion(w.em, form);
  await w.em.flush();
  // sections read back from jsonb keep another key order: compared canonically, only what really changed
  const previous = Object.fromEntries(Object.entries(changedFields(before, dto)).filter(([key]) => canonicalJson(before[key as keyof Form]) !== canonicalJson(dto[key as keyof Form])));
  formEvent(w, before.status !== 'archived' && dto.status === 'archived' ? 'form.archived' : 'form.updated', dto, previous);
  return dto;
}

/** `POST /forms`. */
export async function createFormFrom(w: Work, body: FormCreate): Promise<Form> {
  return createForm(w, createFields(body));
}

/** `PUT /forms/external/{externalId}`: creates the form (201) or replaces it (200; a new version only when something changed). */
export async function putFormByExternalId(w: Work, externalId: string, body: FormReplace): Promise<{ status: number; form: Form }> {
  // concurrent first PUTs of one externalId queue here: one creates, the others then replace
  await lockForTransaction(w.em, `${w.schema}.forms ${JSON.stringify(externalId)}`);
  const existing = await w.em.findOne(OperationsForm, { externalId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!existing) return { status: 201, form: await createForm(w, replaceFields(body, externalId, null)) };
  return { status: 200, form: await updateForm(w, existing, replaceFields(body, externalId, existing)) };
}

/** `PATCH /forms/{id}` (If-Match guards it even when nothing changes). */
export async function patchForm(w: Work, id: string, body: FormPatch): Promise<Form> {
  const form = await lockedForm(w.em, id);
  w.checkVersion(form.version);
  return updateForm(w, form, patchFields(form, body));
}

/** `DELETE /forms/{id}`: archived (history and submissions kept; no new submissions). Archiving an archived form changes nothing. */
export async function archiveForm(w: Work, id: string): Promise<Form> {
  const form = await lockedForm(w.em, id);
  return updateForm(w, form, patchFields(form, { status: 'archived' }));
}

async function lockedForm(em: EntityManager, id: string): Promise<OperationsForm> {
  const form = await em.findOne(OperationsForm, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!form) throw new NotFound('form', id);
  return form;
}

/** Whether a reach covers a form: it is used everywhere, or at a location the reach covers. */
export function formInReach(reach: ReachSet, locationIds: string[]): boolean {
  const reachable = reachableLocationIds(reach);
  return reachable === null || locationIds.length === 0 || locationIds.some((id) => reachable.includes(id));
}

/** `GET /forms/{id}` (optionally an earlier version) and `GET /forms/external/{externalId}`: 404 unknown, 403 used only outside the reach. */
export async function readForm(w: Work, by: { id: string } | { externalId: string }, version?: number): Promise<Form> {
  const [form] = await findPlain(w.em, OperationsForm, by, { limit: 1 });
  if (!form) throw 'id' in by ? new NotFound('form', by.id) : new NotFound('form with externalId', by.externalId);
  if (!formInReach(w.reach(), form.locationIds)) throw new OutOfReach(`Form ${form.id} is used only at locations your permission does not reach.`);
  if (version === undefined || version === form.version) return formDto(form);
  const [old] = await findPlain(w.em, OperationsFormVersion, { formId: form.id, version }, { limit: 1 });
  if (!old) throw new NotFound(`version ${version} of form`, form.id);
  return old.snapshot;
}

/** `GET /forms`: oldest first; a person sees the forms used at a location of their reach (and those used everywhere). */
export async function listForms(w: Work, q: z.output<typeof FormListQuery>): Promise<ListPage<Form>> {
  const { limit, cursor, kind, status, locationId, externalId, updatedSince } = q;
  const reachable = reachableLocationIds(w.reach());
  if (locationId && reachable && !reachable.includes(locationId)) throw new OutOfReach(`Your permission does not reach location ${locationId}.`);
  const everywhere = { locationIds: { $eq: [] } } as FilterQuery<OperationsForm>;
  const page = await findPage(
    w.em,
    OperationsForm,
    [
      kind && { kind },
      status && { status },
      externalId && { externalId },
      locationId && { $or: [everywhere, { locationIds: { $contains: [locationId] } } as FilterQuery<OperationsForm>] },
      reachable && { $or: [everywhere, { locationIds: { $overlap: reachable } } as FilterQuery<OperationsForm>] },
    ],
    { limit, cursor, updatedSince },
  );
  return mapPage(page, formDto);
}

/** A version of a form to answer (spec: a submission keeps the version it answered): the current one, or an earlier one named. */
export async function formToAnswer(w: Work, formId: string, version: number | undefined): Promise<{ current: OperationsForm; answered: Form } | { error: FieldError }> {
  const [form] = await findPlain(w.em, OperationsForm, { id: formId }, { limit: 1 });
  if (!form) return { error: { path: 'formId', message: `No form ${formId}.` } };
  if (version === undefined || version === form.version) return { current: form, answered: formDto(form) };
  if (version > form.version) return { error: { path: 'formVersion', message: `Form ${formId} is at version ${form.version}; there is no version ${version}.` } };
  const [old] = await findPlain(w.em, OperationsFormVersion, { formId, version }, { limit: 1 });
  if (!old) return { error: { path: 'formVersion', message: `Form ${formId} has no version ${version}.` } };
  return { current: form, answered: old.snapshot };
}

/** `POST /internal/forms:states`: the current state of the forms named; unknown ids are absent. */
export async function formStates(w: Work, ids: string[]): Promise<FormState[]> {
  const rows = await findPlain(w.em, OperationsForm, { id: { $in: [...new Set(ids)] } });
  return rows.map((f) => ({ id: f.id, name: f.name, kind: f.kind, status: f.status, version: f.version }));
}
