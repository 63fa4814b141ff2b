import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Form, FormKind, FormSection, FormStatus } from '@bop/contracts';

type Actor = { type: string; id: string | null };

/** A form (checklist, audit or inspection) as it is now: company-wide, used at `locationIds` (empty: everywhere). */
export const OperationsForm = defineEntity({
  name: 'OperationsForm',
  tableName: 'forms',
  properties: {
    id: p.string().primary(),
    externalId: p.string().nullable(),
    name: p.string(),
    description: p.string().nullable(),
    kind: p.string().$type<FormKind>(),
    scored: p.boolean(),
    passMark: p.decimal('string').nullable(),
    locationIds: p.array().$type<string[]>(),
    sections: p.json<FormSection[]>(),
    questionCount: p.integer(),
    status: p.string().$type<FormStatus>(),
    archivedAt: p.datetime().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    actor: p.json<Actor>(),
  },
});
export type OperationsForm = InferEntity<typeof OperationsForm>;

/** Each version of a form as the API returned it then (spec: a submission keeps the version it answered). */
export const OperationsFormVersion = defineEntity({
  name: 'OperationsFormVersion',
  tableName: 'form_versions',
  properties: {
    formId: p.string().primary(),
    version: p.integer().primary(),
    snapshot: p.json<Form>(),
    createdAt: p.datetime(),
  },
});
export type OperationsFormVersion = InferEntity<typeof OperationsFormVersion>;
