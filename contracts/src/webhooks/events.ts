import { z } from '../zod';
import { EventEnvelope, ListQuery, Timestamp, listEnvelope } from '../common';

export const EventListQuery = ListQuery.extend({
  order: z
    .enum(['asc', 'desc'])
    .default('asc')
    .openapi({ description: '`asc` (default): oldest first, in the order events became visible; `desc`: newest first' }),
  type: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .optional()
    .openapi({ description: 'comma-separated event types or patterns ending in `.*` (`sales_order.*`); `*` = every type', example: 'sales_order.*,invoice.paid' }),
  from: Timestamp.optional().openapi({ description: 'events whose `createdAt` is at or after this instant' }),
  to: Timestamp.optional().openapi({ description: 'events whose `createdAt` is before this instant' }),
  objectId: z.string().trim().min(1).max(200).optional().openapi({ description: 'events whose `data.object.id` is this id' }),
});

export const eventLogOperations = {
  'GET /events': { query: EventListQuery, response: listEnvelope(EventEnvelope) },
};
