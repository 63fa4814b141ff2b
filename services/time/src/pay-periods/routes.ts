import { Readable } from 'node:stream';
import { ownEmployeeId, route, type RouteDef } from '@bop/shared';
import { timeSettings } from '../settings/company-settings';
import { listPayPeriods, lockPayPeriod, payrollExport, unlockPayPeriod } from './period-store';
import { payrollCsv } from './payroll';
import { myPay } from './me-store';

export const payPeriodRoutes = (): RouteDef[] => [
  route('GET /time/pay-periods', async (ctx) => {
    return { body: await listPayPeriods(ctx, ctx.query, await timeSettings(ctx.services, ctx.requestId)) };
  }),

  route('POST /time/pay-periods/{id}:lock', async (ctx) => {
    return { body: await lockPayPeriod(ctx, ctx.params.id, () => timeSettings(ctx.services, ctx.requestId)) };
  }),

  route('POST /time/pay-periods/{id}:unlock', async (ctx) => {
    return { body: await unlockPayPeriod(ctx, ctx.params.id, ctx.body.reason, () => timeSettings(ctx.services, ctx.requestId)) };
  }),

  route('GET /me/pay', async (ctx) => {
    return { body: await myPay(ctx, ownEmployeeId(ctx.principal), await timeSettings(ctx.services, ctx.requestId), ctx.query.limit) };
  }),

  // JSON, or CSV with `format=csv` or `Accept: text/csv`
  route('GET /time/pay-periods/{id}/export', async (ctx) => {
    const body = await payrollExport(ctx, ctx.params.id, () => timeSettings(ctx.services, ctx.requestId));
    const csv = ctx.query.format === 'csv' || (ctx.query.format === undefined && /\btext\/csv\b/.test(String(ctx.headers.accept ?? '')));
    if (!csv) return { body };
    const text = payrollCsv(body.employees, body.payPeriod, body.currency);
    return {
      stream: Readable.from([Buffer.from(text, 'utf8')]),
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-length': String(Buffer.byteLength(text)),
        'content-disposition': `attachment; filename="payroll-${body.payPeriod.startDate}-${body.payPeriod.endDate}.csv"`,
      },
    };
  }),
];
