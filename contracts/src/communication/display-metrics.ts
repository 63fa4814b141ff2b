import { z } from '../zod';
import { ListQuery, Timestamp, listEnvelope } from '../common';

const ref = z.string().min(1).max(64);

/** A metric's value: a decimal string (no JSON numbers), up to 15 digits and 4 decimals, may be negative. */
const MetricValue = z
  .string({ error: (iss) => (typeof iss.input === 'number' ? 'Send values as decimal strings such as "1250.50".' : 'Required decimal string.') })
  .regex(/^-?(0|[1-9]\d{0,14})(\.\d{1,4})?$/, 'Use a decimal string with up to 15 digits and 4 decimals such as "1250.50".')
  .openapi({ example: '1250.50' });

export const DisplayMetricInput = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/, 'Use a name of lower-case letters, digits, `_`, `.` or `-` starting with a letter, such as "sales_today".').openapi({ example: 'sales_today' }),
  value: MetricValue,
  unit: z.string().trim().min(1).max(20).nullable().optional().openapi({ example: 'USD' }),
  label: z.string().trim().min(1).max(100).nullable().optional().openapi({ example: 'Sales today' }),
});

export const DisplayMetricsPush = z
  .strictObject({
    locationId: ref,
    measuredAt: Timestamp.optional().openapi({ description: 'when the numbers were true (default now); an older push never replaces a newer value' }),
    metrics: z.array(DisplayMetricInput).min(1).max(100),
  })
  .superRefine((b, ctx) => {
    const seen = new Set<string>();
    b.metrics.forEach((m, i) => {
      if (seen.has(m.name)) ctx.addIssue({ code: 'custom', path: ['metrics', i, 'name'], message: `Metric "${m.name}" is listed twice.` });
      seen.add(m.name);
    });
  })
  .openapi('DisplayMetricsPush');

export const DisplayMetric = z
  .object({
    locationId: z.string(),
    name: z.string(),
    value: z.string(),
    unit: z.string().nullable(),
    label: z.string().nullable(),
    measuredAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('DisplayMetric');

export const DisplayMetricsPushed = z
  .object({ data: z.array(DisplayMetric).openapi({ description: 'the latest value of each metric pushed (an older push keeps the newer value)' }) })
  .openapi('DisplayMetricsPushed');

export const DisplayMetricListQuery = ListQuery.extend({
  locationId: ref.optional(),
  name: z.string().max(64).optional(),
  updatedSince: Timestamp.optional(),
});

export const displayMetricOperations = {
  'GET /display-metrics': { query: DisplayMetricListQuery, response: listEnvelope(DisplayMetric) },
  'POST /display-metrics': { body: DisplayMetricsPush, response: DisplayMetricsPushed },
};
