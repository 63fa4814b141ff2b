import { z } from '../zod';
import { ListQuery, Timestamp } from '../common';
import { IntegrationHealth } from './integrations';

/** Ordered from least to most severe; the `level` list filter means "this level and above". */
export const logLevels = ['debug', 'info', 'warning', 'error'] as const;
export const LogLevel = z.enum(logLevels);
export type LogLevel = z.output<typeof LogLevel>;

export const IntegrationLogCreate = z
  .strictObject({
    level: LogLevel,
    message: z.string().trim().min(1).max(4000),
    context: z.record(z.string(), z.unknown()).optional().openapi({ description: 'structured details (JSON object, at most 16 KB)' }),
  })
  .refine((b) => b.context === undefined || JSON.stringify(b.context).length <= 16_384, { message: 'At most 16 KB of JSON.', path: ['context'] })
  .openapi('IntegrationLogCreate');

export const IntegrationLogEntry = z
  .object({
    id: z.string().openapi({ example: 'ilg_01JD3Z6C8X0Q5Y6T9M2N4P7R1S' }),
    integrationId: z.string(),
    level: LogLevel,
    message: z.string(),
    context: z.record(z.string(), z.unknown()).nullable(),
    createdAt: Timestamp,
  })
  .openapi('IntegrationLogEntry');

export const IntegrationLogListQuery = ListQuery.extend({
  level: LogLevel.optional().openapi({ description: 'this level and the more severe ones' }),
  from: Timestamp.optional().openapi({ description: 'entries created at or after this time' }),
});

export const Heartbeat = z
  .strictObject({
    health: z.enum(['ok', 'warning', 'error']),
    message: z.string().trim().max(1000).optional(),
  })
  .openapi('IntegrationHeartbeat');

export const IntegrationHealthView = z
  .object({
    integrationId: z.string(),
    health: IntegrationHealth,
    healthMessage: z.string().nullable(),
    lastHeartbeatAt: Timestamp.nullable(),
    heartbeatIntervalSeconds: z.number().int(),
    silentAfter: Timestamp.nullable().openapi({ description: 'health becomes `silent` if no heartbeat comes before this time' }),
  })
  .openapi('IntegrationHealthView');
