import { z } from '../zod';
import { ListQuery, listEnvelope } from '../common';

export const EventType = z
  .object({
    type: z.string().openapi({ example: 'location.created' }),
    area: z.string().openapi({ example: 'organization' }),
    planned: z.boolean().openapi({ description: 'announced but not yet available' }),
    feature: z.string().nullable().openapi({ description: 'feature switch the event belongs to; null = always on' }),
    scopes: z.array(z.string()).openapi({ description: 'an integration may subscribe when it holds any one of these scopes' }),
    enabled: z.boolean().openapi({ description: 'its feature (and every parent feature) is on, so it is sent' }),
    subscribable: z.boolean().openapi({ description: 'false for planned events and `webhook.ping` (sent only by the ping operation)' }),
  })
  .openapi('EventType');

export const EventTypeListQuery = ListQuery.extend({
  area: z.string().min(1).max(60).optional(),
});

export const eventTypeOperations = {
  'GET /event-types': { query: EventTypeListQuery, response: listEnvelope(EventType) },
};
