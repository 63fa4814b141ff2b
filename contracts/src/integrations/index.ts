import { IdParam, listEnvelope } from '../common';
import { defineOperations } from '../operation-types';
import { ConfigPatch, IntegrationManifest } from './manifest';
import {
  Integration,
  IntegrationDetail,
  IntegrationListQuery,
  IntegrationManifestReplaced,
  IntegrationRegister,
  IntegrationRegistered,
  KeyRotate,
  KeyRotated,
} from './integrations';
import { Heartbeat, IntegrationHealthView, IntegrationLogCreate, IntegrationLogEntry, IntegrationLogListQuery } from './logs';
import { IngestionBatch, IngestionBatchListQuery } from './batches';

export * from './manifest';
export * from './integrations';
export * from './logs';
export * from './batches';

/**
 * The Integrations table of the spec plus the supplement's heartbeat. Choices where the spec is silent:
 * - `status` is `active` | `paused`; `health` is separate: `unknown` before the first heartbeat, the
 *   reported `ok` | `warning` | `error`, `silent` after 3 × `heartbeatIntervalSeconds` without one.
 * - `:pause` / `:resume` of an integration already in that state answer 200 and change nothing.
 * - secret config values read as `••••` + their last 4 characters (at least 12 long), else `••••`;
 *   a PATCH that sends the masked value back leaves the secret as it is.
 * - `PUT …/manifest` with other scopes mints a new key (answered once as `apiKey`): old keys stop at
 *   once when a scope was removed, after 60 minutes when scopes were only added. Config values of keys
 *   no longer declared are dropped; required keys without a value are listed in `missingConfig`.
 * - logs `level` = that level and the more severe ones; logs and batches are listed oldest first.
 */
export const integrationsOperations = defineOperations({
  'GET /integrations': { query: IntegrationListQuery, response: listEnvelope(Integration) },
  'POST /integrations': { body: IntegrationRegister, response: IntegrationRegistered, status: 201 },
  'GET /integrations/{id}': { params: IdParam, response: IntegrationDetail },
  'DELETE /integrations/{id}': { params: IdParam, status: 204 },
  'PUT /integrations/{id}/manifest': { params: IdParam, body: IntegrationManifest, response: IntegrationManifestReplaced },
  'PATCH /integrations/{id}/config': { params: IdParam, body: ConfigPatch, response: Integration },
  'POST /integrations/{id}:pause': { params: IdParam, response: Integration },
  'POST /integrations/{id}:resume': { params: IdParam, response: Integration },
  'POST /integrations/{id}:rotate-key': { params: IdParam, body: KeyRotate, response: KeyRotated },
  'GET /integrations/{id}/logs': { params: IdParam, query: IntegrationLogListQuery, response: listEnvelope(IntegrationLogEntry) },
  'GET /integrations/{id}/batches': { params: IdParam, query: IngestionBatchListQuery, response: listEnvelope(IngestionBatch) },
  'POST /integrations/self/logs': { body: IntegrationLogCreate, response: IntegrationLogEntry, status: 201 },
  'POST /integrations/self/heartbeat': { body: Heartbeat, response: IntegrationHealthView },
});
