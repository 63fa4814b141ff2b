import type { EntityManager } from '@mikro-orm/postgresql';
import { processClock, type Clock } from '@bop/shared';
import { allEndpointViews, enableEndpoint, retryFailed } from './store';

/**
 * The ops CLI's entry points (`webhooks list|enable|retry-failed`). Each takes any EntityManager
 * (forked here) and runs the same actions as the routes.
 */
export const webhooksAdmin = {
  listEndpoints: (em: EntityManager) => allEndpointViews(em.fork()),

  enableEndpoint: (em: EntityManager, id: string, clock: Clock = processClock) => enableEndpoint(em.fork(), id, clock.now()),

  retryFailed: (em: EntityManager, id: string, clock: Clock = processClock) => retryFailed(em.fork(), id, clock.now()),
};
