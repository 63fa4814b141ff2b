import type { EntityManager } from '@mikro-orm/postgresql';
import { systemClock, type Clock } from '@bop/shared';
import { Endpoint } from './entities';
import { enableEndpoint, endpointViews, retryFailed } from './actions/endpoints';

/**
 * The ops CLI's entry points (`webhooks list|enable|retry-failed`). Each takes any EntityManager
 * (forked here) and runs the same actions as the routes.
 */
export const webhooksAdmin = {
  async listEndpoints(em: EntityManager) {
    const fork = em.fork();
    return endpointViews(fork, await fork.find(Endpoint, {}, { orderBy: { id: 'asc' } }));
  },

  enableEndpoint: (em: EntityManager, id: string, clock: Clock = systemClock) => enableEndpoint(em.fork(), id, clock.now()),

  retryFailed: (em: EntityManager, id: string, clock: Clock = systemClock) => retryFailed(em.fork(), id, clock.now()),
};
