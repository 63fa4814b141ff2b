import type { Work } from '@bop/shared';
import { allEndpointViews, enableEndpoint, retryFailed } from './store';

/**
 * The ops CLI's entry points (`webhooks list|enable|retry-failed`); each takes a unit of the
 * service's runtime (`runtime.read(…)` to list, `runtime.write(…)` to change) and runs the same
 * actions as the routes.
 */
export const webhooksAdmin = {
  listEndpoints: (w: Work) => allEndpointViews(w),

  enableEndpoint: (w: Work, id: string) => enableEndpoint(w, id),

  retryFailed: (w: Work, id: string) => retryFailed(w, id),
};
