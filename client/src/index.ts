/**
 * The typed client: the SDK generated from the OpenAPI document (src/generated, `npm run build`),
 * bound to one base URL and token, with retries (429/503 after `Retry-After`), an `Idempotency-Key`
 * on every POST, cursor iteration and webhook signature checks.
 */
import { createClient as createFetchClient, createConfig, type Client } from './generated/client';
import * as sdk from './generated/sdk.gen';
import { retryingFetch, type RetryOptions } from './retry';

export type { RetryOptions } from './retry';
export { retryAfterMs } from './retry';
export { paginate, ApiError, type ListPage } from './pages';
export { verifyWebhookSignature, type VerifyOptions } from './webhooks';
export type * from './generated/types.gen';

export interface ClientOptions {
  /** the API's base, ending in `/api/v1` (e.g. `http://127.0.0.1:8080/api/v1`) */
  baseUrl: string;
  /** an integration key, a personal key or a session token (sent as `Authorization: Bearer …`) */
  token?: string;
  retry?: RetryOptions;
  /** the fetch underneath (default the global one) */
  fetch?: typeof fetch;
}

type Sdk = typeof sdk;

/** Every SDK call (`api.getLocations`, `api.postLocations` …) bound to this client, plus the client itself. */
export type Api = Sdk & { client: Client };

export function createClient(options: ClientOptions): Api {
  const client = createFetchClient(
    createConfig({ baseUrl: options.baseUrl.replace(/\/$/, ''), auth: options.token, fetch: retryingFetch(options.retry, options.fetch) }),
  );
  const api: Record<string, unknown> = { client };
  for (const [name, call] of Object.entries(sdk)) {
    if (typeof call === 'function') api[name] = (opts?: object) => (call as (o: object) => unknown)({ ...opts, client });
  }
  return api as Api;
}
