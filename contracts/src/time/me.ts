import { z } from '../zod';
import { ListQuery } from '../common';

/** `GET /me/pay`: the caller's pay rates (people's, oldest first) and an estimate per pay period of their timesheets. */
export const MePay = z
  .object({
    currency: z.string(),
    rates: z.array(z.object({ type: z.enum(['hourly', 'salary']), amount: z.string(), position: z.string().nullable(), effectiveDate: z.string() })),
    periods: z.array(
      z.object({
        payPeriodId: z.string(),
        startDate: z.string(),
        endDate: z.string(),
        timesheetStatus: z.enum(['open', 'approved', 'rejected', 'locked']),
        regularHours: z.string(),
        overtimeHours: z.string(),
        timeOffHours: z.string(),
        estimatedGross: z.string().openapi({ description: 'hourly rates only: regular × rate + overtime × rate × multiplier; an estimate, not a payslip' }),
      }),
    ),
  })
  .openapi('MePay');

export const mePayOperations = {
  'GET /me/pay': { query: ListQuery.pick({ limit: true }), response: MePay },
};
