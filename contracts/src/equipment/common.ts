import { z } from '../zod';

export { Actor } from '../common';

/** The meters an asset may carry: running hours and cycles. */
export const MeterKind = z.enum(['running_hours', 'cycles']);
export type MeterKind = z.output<typeof MeterKind>;

/** A meter value: a non-negative decimal string (no JSON numbers), up to 12 digits and 4 decimals. */
export const MeterValue = z
  .string({ error: (iss) => (typeof iss.input === 'number' ? 'Send meter values as decimal strings such as "1250.5".' : 'Required decimal string.') })
  .regex(/^(0|[1-9]\d{0,11})(\.\d{1,4})?$/, 'Use a non-negative decimal string with up to 12 digits and 4 decimals such as "1250.5".')
  .openapi({ example: '1250.5' });

/** A short label (category, vendor …). */
export const label = (max = 100) => z.string().trim().min(1).max(max);
export const ref = z.string().min(1).max(64);
