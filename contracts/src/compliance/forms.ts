import { z } from '../zod';
import { ExternalIdParam, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';

/**
 * Forms (spec: Forms, checklists and compliance): checklists, audits and inspections made of sections
 * of questions. Each question type has its pass/fail rule; scored forms weigh their questions and may
 * set a pass mark; a question may open a corrective action when its answer fails. Every change makes
 * a new version of the form, and a submission keeps the version it answered.
 */

export const FormKind = z.enum(['checklist', 'audit', 'inspection']);
export type FormKind = z.output<typeof FormKind>;
export const FormStatus = z.enum(['active', 'archived']);
export type FormStatus = z.output<typeof FormStatus>;
export const QuestionType = z.enum(['yes_no', 'number', 'temperature', 'text', 'single_choice', 'multiple_choice', 'photo', 'signature']);
export type QuestionType = z.output<typeof QuestionType>;
export const TemperatureUnit = z.enum(['C', 'F']);
export type TemperatureUnit = z.output<typeof TemperatureUnit>;
export const CorrectiveActionPriority = z.enum(['low', 'medium', 'high', 'urgent']);
export type CorrectiveActionPriority = z.output<typeof CorrectiveActionPriority>;

const id = z.string().min(1).max(64);
/** A section's or question's key: stable within the form, what answers name. */
export const FormKey = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'Use 1 to 64 letters, digits, "_", "." or "-", starting with a letter or digit.')
  .openapi({ example: 'fridge-temp' });
const text = (max: number) => z.string().trim().min(1).max(max);
/** A measured value: a decimal string, at most 4 decimals (temperatures may be negative). */
export const MeasuredValue = z
  .string()
  .regex(/^-?(0|[1-9]\d{0,8})(\.\d{1,4})?$/, 'Use a decimal string such as "4", "-18.5" or "1200" (at most 4 decimals).')
  .openapi({ example: '3.5' });
const Weight = z
  .string()
  .regex(/^(0|[1-9]\d{0,3})(\.\d{1,2})?$/, 'Use a decimal string such as "1" or "2.5" (0 to 9999.99, at most 2 decimals).')
  .openapi({ example: '1' });
const Percent = z
  .string()
  .regex(/^(0|[1-9]\d{0,2})(\.\d{1,2})?$/, 'Use a percentage as a decimal string such as "80" or "92.5" (at most 2 decimals).')
  .refine((v) => Number(v) <= 100, 'At most 100.')
  .openapi({ example: '80' });

/** What a failed answer of the question opens (spec: a question set to raise a corrective action). */
export const QuestionCorrectiveAction = z
  .strictObject({
    priority: CorrectiveActionPriority.default('medium'),
    dueWithinHours: z.number().int().min(1).max(8760).nullable().default(24).openapi({ description: 'due this many hours after the form was completed; null: no due date' }),
  })
  .openapi('QuestionCorrectiveAction');

const questionCommon = {
  id: FormKey.optional().openapi({ description: 'default: `q<n>`, its position in the form (1-based)' }),
  text: text(500).openapi({ example: 'Walk-in cooler temperature' }),
  help: text(2000).nullable().optional(),
  required: z.boolean().default(true),
  weight: Weight.default('1').openapi({ description: 'its share of a scored form\'s score (0: not scored)' }),
  critical: z.boolean().default(false).openapi({ description: 'a failed answer fails the whole submission, whatever its score' }),
  allowNotApplicable: z.boolean().default(false).openapi({ description: 'the answer may be `notApplicable` (left out of the score)' }),
  correctiveAction: QuestionCorrectiveAction.nullable().default(null).openapi({ description: 'a failed answer opens a corrective action; null: it does not' }),
};

const range = {
  min: MeasuredValue.nullable().default(null).openapi({ description: 'lowest acceptable value (inclusive); null: no lower bound' }),
  max: MeasuredValue.nullable().default(null).openapi({ description: 'highest acceptable value (inclusive); null: no upper bound' }),
};

export const ChoiceOption = z
  .strictObject({
    value: text(100).openapi({ example: 'clean' }),
    label: text(200).openapi({ example: 'Clean' }),
    fails: z.boolean().default(false).openapi({ description: 'choosing it fails the answer' }),
  })
  .openapi('ChoiceOption');

const options = z.array(ChoiceOption).min(2).max(50);

/** A question as sent: its type decides the fields of its rule. */
export const QuestionInput = z
  .discriminatedUnion('type', [
    z.strictObject({ ...questionCommon, type: z.literal('yes_no'), expected: z.boolean().nullable().default(true).openapi({ description: 'the answer that passes; null: either passes' }) }),
    z.strictObject({ ...questionCommon, type: z.literal('number'), ...range, unit: text(20).nullable().default(null) }),
    z.strictObject({ ...questionCommon, type: z.literal('temperature'), ...range, unit: TemperatureUnit }),
    z.strictObject({ ...questionCommon, type: z.literal('text'), maxLength: z.number().int().min(1).max(4000).default(2000) }),
    z.strictObject({ ...questionCommon, type: z.literal('single_choice'), options }),
    z.strictObject({ ...questionCommon, type: z.literal('multiple_choice'), options }),
    z.strictObject({ ...questionCommon, type: z.literal('photo'), minPhotos: z.number().int().min(1).max(20).default(1).openapi({ description: 'fewer photos fail the answer' }) }),
    z.strictObject({ ...questionCommon, type: z.literal('signature') }),
  ])
  .openapi('QuestionInput');
export type QuestionInput = z.output<typeof QuestionInput>;

export const SectionInput = z
  .strictObject({
    id: FormKey.optional().openapi({ description: 'default: `s<n>`, its position (1-based)' }),
    title: text(200).openapi({ example: 'Cold holding' }),
    questions: z.array(QuestionInput).min(1).max(200),
  })
  .openapi('SectionInput');
export type SectionInput = z.output<typeof SectionInput>;

const definition = {
  name: text(200).openapi({ example: 'Opening checklist' }),
  description: text(2000).nullable().optional(),
  kind: FormKind,
  scored: z.boolean().optional().openapi({ description: 'weigh the answers into a score; default: true for audits, false otherwise (an audit is always scored)' }),
  passMark: Percent.nullable().optional().openapi({ description: 'the score (percent) a scored submission needs to pass; null: no pass mark' }),
  locationIds: z.array(id).max(2000).optional().openapi({ description: 'where the form is used (each once); empty or absent: every location' }),
  sections: z.array(SectionInput).min(1).max(50),
};

/** Body of `POST /forms`. */
export const FormCreate = z.strictObject({ externalId: text(200).nullable().optional(), ...definition }).openapi('FormCreate');
export type FormCreate = z.output<typeof FormCreate>;

/** Body of `PUT /forms/external/{externalId}`: the whole form; the same content again changes nothing (no new version); `status` absent keeps the stored one. */
export const FormReplace = z.strictObject({ ...definition, status: FormStatus.optional() }).openapi('FormReplace');
export type FormReplace = z.output<typeof FormReplace>;

/** Body of `PATCH /forms/{id}`: only the fields sent change (a new version); `sections` replaces all of them. */
export const FormPatch = z
  .strictObject({
    externalId: text(200).nullable().optional(),
    name: definition.name.optional(),
    description: definition.description,
    kind: FormKind.optional(),
    scored: z.boolean().optional(),
    passMark: Percent.nullable().optional(),
    locationIds: z.array(id).max(2000).optional(),
    sections: definition.sections.optional(),
    status: FormStatus.optional(),
  })
  .openapi('FormPatch');
export type FormPatch = z.output<typeof FormPatch>;

const questionOutCommon = {
  id: z.string(),
  text: z.string(),
  help: z.string().nullable(),
  required: z.boolean(),
  weight: z.string(),
  critical: z.boolean(),
  allowNotApplicable: z.boolean(),
  correctiveAction: z.object({ priority: CorrectiveActionPriority, dueWithinHours: z.number().int().nullable() }).nullable(),
};
const rangeOut = { min: z.string().nullable(), max: z.string().nullable() };
const optionsOut = z.array(z.object({ value: z.string(), label: z.string(), fails: z.boolean() }));

export const FormQuestion = z
  .discriminatedUnion('type', [
    z.object({ ...questionOutCommon, type: z.literal('yes_no'), expected: z.boolean().nullable() }),
    z.object({ ...questionOutCommon, type: z.literal('number'), ...rangeOut, unit: z.string().nullable() }),
    z.object({ ...questionOutCommon, type: z.literal('temperature'), ...rangeOut, unit: TemperatureUnit }),
    z.object({ ...questionOutCommon, type: z.literal('text'), maxLength: z.number().int() }),
    z.object({ ...questionOutCommon, type: z.literal('single_choice'), options: optionsOut }),
    z.object({ ...questionOutCommon, type: z.literal('multiple_choice'), options: optionsOut }),
    z.object({ ...questionOutCommon, type: z.literal('photo'), minPhotos: z.number().int() }),
    z.object({ ...questionOutCommon, type: z.literal('signature') }),
  ])
  .openapi('FormQuestion');
export type FormQuestion = z.output<typeof FormQuestion>;

export const FormSection = z.object({ id: z.string(), title: z.string(), questions: z.array(FormQuestion) }).openapi('FormSection');
export type FormSection = z.output<typeof FormSection>;

export const Form = z
  .object({
    id: z.string().openapi({ example: 'frm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    externalId: z.string().nullable(),
    name: z.string(),
    description: z.string().nullable(),
    kind: FormKind,
    scored: z.boolean(),
    passMark: z.string().nullable(),
    locationIds: z.array(z.string()),
    sections: z.array(FormSection),
    questionCount: z.number().int(),
    status: FormStatus,
    archivedAt: Timestamp.nullable(),
    version: z.number().int().openapi({ description: 'the form\'s version: each change makes a new one; submissions keep the version they answered' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Form');
export type Form = z.output<typeof Form>;

export const FormListQuery = ListQuery.extend({
  kind: FormKind.optional(),
  status: FormStatus.optional(),
  locationId: id.optional().openapi({ description: 'forms used at this location (those naming it, and those naming none)' }),
  externalId: z.string().min(1).max(200).optional(),
  updatedSince: Timestamp.optional(),
});

export const FormGetQuery = z.object({
  version: z.coerce.number().int().min(1).max(1_000_000).optional().openapi({ description: 'an earlier version of the form (as a submission answered it); default: the current one' }),
});

export const formOperations = {
  'GET /forms': { query: FormListQuery, response: listEnvelope(Form) },
  'POST /forms': { body: FormCreate, response: Form, status: 201 },
  'GET /forms/external/{externalId}': { params: ExternalIdParam, response: Form },
  'PUT /forms/external/{externalId}': { params: ExternalIdParam, body: FormReplace, response: Form, alsoStatuses: [201] },
  'GET /forms/{id}': { params: IdParam, query: FormGetQuery, response: Form },
  'PATCH /forms/{id}': { params: IdParam, body: FormPatch, response: Form },
  'DELETE /forms/{id}': { params: IdParam, response: Form },
};
