import { assertCompanyWide, route, type RouteDef } from '@bop/shared';
import { archiveForm, createFormFrom, formConflictFor, listForms, patchForm, putFormByExternalId, readForm } from './store';

/**
 * Forms (spec: Forms, checklists and compliance). Forms are company-wide: writing needs `forms.manage`
 * at reach Everyone; reading (`checklists.complete`) shows the forms used at the reach's locations.
 */
export const formRoutes = (): RouteDef[] => [
  route('GET /forms', async (ctx) => {
    return { body: await listForms(ctx, ctx.query) };
  }),

  route(
    'POST /forms',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Forms');
      const form = await createFormFrom(ctx, ctx.body);
      return { status: 201, body: form, headers: { Location: `/api/v1/forms/${form.id}` } };
    },
    { conflict: formConflictFor },
  ),

  route('GET /forms/external/{externalId}', async (ctx) => {
    return { body: await readForm(ctx, { externalId: ctx.params.externalId }) };
  }),

  // create or replace from a content system; the same content again answers 200 with the stored form (no new version)
  route(
    'PUT /forms/external/{externalId}',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Forms');
      const result = await putFormByExternalId(ctx, ctx.params.externalId, ctx.body);
      return { status: result.status, body: result.form, headers: result.status === 201 ? { Location: `/api/v1/forms/${result.form.id}` } : undefined };
    },
    { conflict: formConflictFor },
  ),

  route('GET /forms/{id}', async (ctx) => {
    return { body: await readForm(ctx, { id: ctx.params.id }, ctx.query.version) };
  }),

  route(
    'PATCH /forms/{id}',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Forms');
      return { body: await patchForm(ctx, ctx.params.id, ctx.body) };
    },
    { conflict: formConflictFor },
  ),

  // archive: its submissions and versions are kept; it takes no new submissions
  route(
    'DELETE /forms/{id}',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Forms');
      return { body: await archiveForm(ctx, ctx.params.id) };
    },
    { conflict: formConflictFor },
  ),
];
