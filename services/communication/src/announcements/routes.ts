import { ownEmployeeId, route, type RouteDef } from '@bop/shared';
import { archiveAnnouncement, createAnnouncement, getAnnouncement, listAcknowledgements, listAnnouncements, patchAnnouncement, publishAnnouncement } from './store';
import { acknowledgeAnnouncement, myAnnouncements } from './my-store';

export const announcementRoutes = (): RouteDef[] => [
  route('GET /announcements', async (ctx) => {
    return { body: await listAnnouncements(ctx, ctx.query) };
  }),

  route('POST /announcements', async (ctx) => {
    const body = await createAnnouncement(ctx, ctx.body);
    return { status: 201, body, headers: { Location: `/api/v1/announcements/${body.id}` } };
  }),

  route('GET /announcements/{id}', async (ctx) => {
    return { body: await getAnnouncement(ctx, ctx.params.id) };
  }),

  route('PATCH /announcements/{id}', async (ctx) => {
    return { body: await patchAnnouncement(ctx, ctx.params.id, ctx.body) };
  }),

  route('DELETE /announcements/{id}', async (ctx) => {
    return { body: await archiveAnnouncement(ctx, ctx.params.id) };
  }),

  route('POST /announcements/{id}:publish', async (ctx) => {
    return { body: await publishAnnouncement(ctx, ctx.params.id, ctx.body) };
  }),

  route('GET /announcements/{id}/acknowledgements', async (ctx) => {
    return { body: await listAcknowledgements(ctx, ctx.params.id, ctx.query) };
  }),

  route('GET /me/announcements', async (ctx) => {
    const { limit, cursor } = ctx.query;
    return { body: await myAnnouncements(ctx, ownEmployeeId(ctx.principal), { limit, cursor }) };
  }),

  route('POST /me/announcements/{id}:acknowledge', async (ctx) => {
    return { body: await acknowledgeAnnouncement(ctx, ownEmployeeId(ctx.principal), ctx.params.id) };
  }),
];
