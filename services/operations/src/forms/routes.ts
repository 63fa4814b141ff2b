import { assertCompanyWide, now, route, type RouteDef } from '@bop/shared';
import { archiveForm, createFormFrom, listForms, patchForm, putFormByExternalId, readForm } from './store';

/**
 * Forms (spec: Forms, checklists and compliance). Forms are company-wide: writing needs `forms.manage`
 * at reach Everyone; reading (`checklists.complete`) shows the forms used at the reach's locations.
 */
export const formRoutes = (): RouteDef[] => [
  route('GET /forms', async (ctx) => {
    return { body: await listForms(ctx.em, ctx.query, ctx.reach()) };
  }),

  route('POST /forms', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Forms');
    const form = await createFormFrom(ctx.em, ctx.body, { actor: ctx.principal, now: now() });
    return { status: 201, body: form, headers: { Location: `/api/v1/forms/${form.id}` } };
  }),

  route('GET /forms/external/{externalId}', async (ctx) => {
    return { body: await readForm(ctx.em, { externalId: ctx.params.externalId }, ctx.reach()) };
  }),

  // create or replace from a content system; the same content again answers 200 with the stored form (no new version)
  route('PUT /forms/external/{externalId}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Forms');
    const w = { actor: ctx.principal, now: now(), checkVersion: (v: number) => ctx.checkVersion(v) };
    const result = await putFormByExternalId(ctx.em, ctx.params.externalId, ctx.body, w);
    return { status: result.status, body: result.form, headers: result.status === 201 ? { Location: `/api/v1/forms/${result.form.id}` } : undefined };
  }),

  route('GET /forms/{id}', async (ctx) => {
    return { body: await readForm(ctx.em, { id: ctx.params.id }, ctx.reach(), ctx.query.version) };
  }),

  route('PATCH /forms/{id}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Forms');
    return { body: await patchForm(ctx.em, ctx.params.id, ctx.body, { actor: ctx.principal, now: now(), checkVersion: (v: number) => ctx.checkVersion(v) }) };
  }),

  // archive: its submissions and versions are kept; it takes no new submissions
  route('DELETE /forms/{id}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Forms');
    return { body: await archiveForm(ctx.em, ctx.params.id, { actor: ctx.principal, now: now(), checkVersion: (v: number) => ctx.checkVersion(v) }) };
  }),
];
