import { z } from '../zod';
import { Actor, ListQuery, Timestamp, listEnvelope } from '../common';

const ref = z.string().min(1).max(64);

export const RecognitionCreate = z
  .strictObject({
    employeeId: ref.openapi({ description: 'who is recognised: an active employee within the giver\'s reach' }),
    message: z.string().trim().min(1).max(1000).openapi({ example: 'Saved the Friday rush on the grill.' }),
    badge: z.string().trim().min(1).max(50).nullable().optional().openapi({ example: 'team_player' }),
    locationId: ref.optional().openapi({ description: 'where it is shown (one of the employee\'s locations); default: their home location' }),
  })
  .openapi('RecognitionCreate');

export const Recognition = z
  .object({
    id: z.string().openapi({ example: 'rcg_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    employeeId: z.string(),
    employeeName: z.string().openapi({ description: 'as the employee record named them when it was posted' }),
    locationId: z.string(),
    message: z.string(),
    badge: z.string().nullable(),
    givenBy: Actor,
    createdAt: Timestamp,
  })
  .openapi('Recognition');

export const RecognitionListQuery = ListQuery.extend({
  locationId: ref.optional(),
  employeeId: ref.optional(),
});

export const recognitionOperations = {
  'GET /recognitions': { query: RecognitionListQuery, response: listEnvelope(Recognition) },
  'POST /recognitions': { body: RecognitionCreate, response: Recognition, status: 201 },
};
