import { z } from '../zod';
import { Actor, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';

const ref = z.string().min(1).max(64);
const metricName = z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/, 'Use a metric name such as "sales_today" (lower-case letters, digits, `_`, `.` or `-`).');

/** What a paired screen shows: metrics, a recognition leaderboard and the location's announcements, rotating every `rotationSeconds`. */
export const DisplayLayout = z
  .strictObject({
    metrics: z
      .array(metricName)
      .max(24)
      .default([])
      .openapi({ description: 'the display metrics shown, in this order; empty: every metric pushed for the location' }),
    leaderboard: z
      .strictObject({
        enabled: z.boolean().default(true),
        periodDays: z.number().int().min(1).max(90).default(7).openapi({ description: 'recognitions counted over this many days up to now' }),
        size: z.number().int().min(1).max(10).default(5).openapi({ description: 'people shown' }),
      })
      .default({ enabled: true, periodDays: 7, size: 5 }),
    announcements: z
      .strictObject({
        enabled: z.boolean().default(true),
        limit: z.number().int().min(1).max(10).default(5).openapi({ description: 'newest announcements shown' }),
      })
      .default({ enabled: true, limit: 5 }),
    rotationSeconds: z.number().int().min(5).max(300).default(15).openapi({ description: 'how long each page of metrics or each announcement stays before the next' }),
  })
  .superRefine((b, ctx) => {
    const seen = new Set<string>();
    b.metrics.forEach((m, i) => {
      if (seen.has(m)) ctx.addIssue({ code: 'custom', path: ['metrics', i], message: `Metric "${m}" is listed twice.` });
      seen.add(m);
    });
  })
  .openapi('DisplayLayout');

export const DisplayScreenStatus = z.enum(['paired', 'archived']);

export const DisplayScreenCreate = z
  .strictObject({
    pairingCode: z
      .string()
      .trim()
      .min(1)
      .max(20)
      .openapi({ example: 'K7QM-4XPA', description: 'the code the screen shows at /display/ (case and dashes do not matter); codes last 10 minutes' }),
    locationId: ref.openapi({ description: 'the location whose display data the screen shows' }),
    name: z.string().trim().min(1).max(100).optional().openapi({ example: 'Kitchen pass' }),
    config: DisplayLayout.optional().openapi({ description: 'the layout (default: every metric, leaderboard and announcements on, 15 s rotation)' }),
  })
  .openapi('DisplayScreenCreate');

export const DisplayScreenConfig = z
  .object({
    screenId: z.string(),
    metrics: z.array(z.string()),
    leaderboard: z.object({ enabled: z.boolean(), periodDays: z.number().int(), size: z.number().int() }),
    announcements: z.object({ enabled: z.boolean(), limit: z.number().int() }),
    rotationSeconds: z.number().int(),
    version: z.number().int(),
    updatedAt: Timestamp,
  })
  .openapi('DisplayScreenConfig');

export const DisplayScreen = z
  .object({
    id: z.string().openapi({ example: 'dsp_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    name: z.string().nullable(),
    locationId: z.string(),
    status: DisplayScreenStatus,
    pairedAt: Timestamp,
    pairedBy: Actor,
    tokenIssuedAt: Timestamp.nullable().openapi({ description: 'when the screen picked up its screen token (null: not yet)' }),
    lastSeenAt: Timestamp.nullable().openapi({ description: 'when the screen last opened its live stream or read its snapshot' }),
    archivedAt: Timestamp.nullable(),
    config: DisplayLayout,
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('DisplayScreen');

export const DisplayScreenListQuery = ListQuery.extend({
  locationId: ref.optional(),
  status: DisplayScreenStatus.optional().openapi({ description: 'default: paired screens only' }),
  updatedSince: Timestamp.optional(),
});

export const displayScreenOperations = {
  'GET /display-screens': { query: DisplayScreenListQuery, response: listEnvelope(DisplayScreen) },
  'POST /display-screens': { body: DisplayScreenCreate, response: DisplayScreen, status: 201 },
  'DELETE /display-screens/{id}': { params: IdParam, response: DisplayScreen },
  'GET /display-screens/{id}/config': { params: IdParam, response: DisplayScreenConfig },
  'PUT /display-screens/{id}/config': { params: IdParam, body: DisplayLayout, response: DisplayScreenConfig },
};
