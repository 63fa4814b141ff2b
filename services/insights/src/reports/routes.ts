import { BadRequest, decodeCursor, encodeCursor, NotFound, route, type RouteDef } from '@bop/shared';
import { queryLocations, type OrgUnitLocations } from '../locations/reach-store';
import { reportParameters, type ReportRegistry } from './registry';
import { parseReportParams, scopeOf } from './params';
import { getExport, requestExport } from './exports-store';
import { createSchedule, listSchedules, stopSchedule } from './schedules-store';

export const reportRoutes = (reports: ReportRegistry, inOrgUnits: OrgUnitLocations): RouteDef[] => [
  route('GET /reports', async () => ({
    status: 200,
    body: { data: reports.list().map((r) => ({ key: r.key, title: r.title, description: r.description, parameters: reportParameters(r.params), columns: r.columns })) },
  })),

  route('GET /reports/{key}', async (ctx) => {
    const report = reports.get(ctx.params.key);
    if (!report) throw new NotFound('report', ctx.params.key);
    const { limit, cursor, ...raw } = ctx.query;
    const after = decodeCursor(cursor);
    const parsed = parseReportParams(report, raw);
    if ('errors' in parsed) throw new BadRequest('The report parameters are not valid.', parsed.errors);
    const locationIds = await queryLocations(ctx, scopeOf(parsed.params), inOrgUnits);
    const result = await report.run(ctx, { ...parsed.params, locationIds }, { limit, after });
    return {
      status: 200,
      body: {
        key: report.key,
        title: report.title,
        locationIds,
        columns: report.columns,
        data: result.rows,
        nextCursor: result.nextCursor === null ? null : encodeCursor(result.nextCursor),
        hasMore: result.nextCursor !== null,
      },
    };
  }),

  route('POST /report-exports', async (ctx) => {
    const body = await requestExport(ctx, reports, ctx.body, inOrgUnits);
    return { status: 202, body, headers: { Location: `/api/v1/report-exports/${body.id}` } };
  }),

  route('GET /report-exports/{id}', async (ctx) => ({ status: 200, body: await getExport(ctx, ctx.params.id) })),

  route('GET /report-schedules', async (ctx) => ({ status: 200, body: await listSchedules(ctx, ctx.query) })),

  route('POST /report-schedules', async (ctx) => {
    return { status: 201, body: await createSchedule(ctx, reports, ctx.body, inOrgUnits) };
  }),

  route('DELETE /report-schedules/{id}', async (ctx) => {
    await stopSchedule(ctx, ctx.params.id);
    return { status: 204 };
  }),
];
