import { LockMode } from '@mikro-orm/core';
import { ValidationError, type Work } from '@bop/shared';
import { IntegrationState } from './entities';
import { Endpoint } from '../endpoints/entities';
import { checkEvents, type FieldError } from '../event-types/subscriptions';
import { PREVIOUS_SECRET_GRACE_MS } from '../deliveries/signature';
import { deliveryCounts, lockQueuesShared, releaseQueue } from '../deliveries/store';
import { checkTarget, type TargetRules } from '../endpoints/targets';
import { newEndpoint } from '../endpoints/store';
import type { IntegrationEndpointsPut } from './internal-schemas';

/** The integration's row, locked for the rest of the transaction (created on first use). */
async function lockIntegration(w: Work, integrationId: string): Promise<IntegrationState> {
  const { em, now } = w;
  await lockQueuesShared(w);
  await em.createQueryBuilder(IntegrationState).insert({ integrationId, paused: false, scopes: [], createdAt: now, updatedAt: now }).onConflict('integrationId').ignore().execute();
  const row = await em.findOne(IntegrationState, { integrationId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!row) throw new Error(`integration ${integrationId} vanished`);
  return row;
}

const brief = (e: Endpoint) => ({ id: e.id, url: e.url, events: e.events, status: e.status as 'active' | 'disabled' });

/**
 * Replaces an integration's endpoint set from its manifest: an endpoint whose url stays keeps its id
 * and queue; a url no longer listed goes with its deliveries. A new secret replaces the current one
 * and the previous keeps signing for 24 h.
 */
export async function putIntegrationEndpoints(w: Work, integrationId: string, input: IntegrationEndpointsPut, rules: TargetRules) {
  const { em, now } = w;
  const integration = await lockIntegration(w, integrationId);
  const errors: FieldError[] = [];
  if (!integration.secret && !input.secret) errors.push({ path: 'secret', message: 'Required the first time an integration declares its endpoints.' });
  const wanted: Array<{ url: string; events: string[] }> = [];
  const seen = new Set<string>();
  for (const [i, hook] of input.webhooks.entries()) {
    let url = hook.url;
    try {
      url = await checkTarget(hook.url, rules, `webhooks[${i}].url`);
    } catch (err) {
      if (err instanceof ValidationError) errors.push(...(err.errors ?? []));
      else throw err;
    }
    if (seen.has(url)) errors.push({ path: `webhooks[${i}].url`, message: 'Listed twice.' });
    seen.add(url);
    // spec: Events, Subscribing — an integration subscribes only to events its scopes cover
    const checked = checkEvents(hook.events, { path: `webhooks[${i}].events`, scopes: input.scopes, allowPlanned: true });
    errors.push(...checked.errors);
    wanted.push({ url, events: checked.events });
  }
  if (errors.length > 0) throw new ValidationError(errors);

  if (input.secret && input.secret !== integration.secret) {
    if (integration.secret) {
      integration.previousSecret = integration.secret;
      integration.previousSecretUntil = new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS);
    }
    integration.secret = input.secret;
  }
  integration.scopes = [...new Set(input.scopes)];
  integration.updatedAt = now;

  const existing = new Map((await em.find(Endpoint, { integrationId })).map((e) => [e.url, e]));
  const result: Endpoint[] = [];
  for (const want of wanted) {
    const e = existing.get(want.url);
    existing.delete(want.url);
    if (e) {
      if (JSON.stringify(e.events) !== JSON.stringify(want.events)) {
        e.events = want.events;
        e.version += 1;
        e.updatedAt = now;
      }
      result.push(e);
      continue;
    }
    result.push(newEndpoint(w, { url: want.url, events: want.events, description: null, integrationId, secret: null }));
  }
  for (const gone of existing.values()) em.remove(gone);
  await em.flush();
  return { endpoints: result.map(brief) };
}

export async function listIntegrationEndpoints(w: Work, integrationId: string) {
  const endpoints = await w.em.find(Endpoint, { integrationId }, { orderBy: { id: 'asc' } });
  const counts = await deliveryCounts(w, endpoints.map((e) => e.id));
  return {
    endpoints: endpoints.map((e) => ({ ...brief(e), pendingDeliveries: counts.get(e.id)!.pending, failedDeliveries: counts.get(e.id)!.failed })),
  };
}

/** The integration is removed: its endpoints and their deliveries go (cascade). */
export async function removeIntegration(w: Work, integrationId: string): Promise<void> {
  await lockQueuesShared(w);
  await w.em.nativeDelete(IntegrationState, { integrationId });
}

/** spec: States — paused: its webhooks wait; resumed: queued events are sent in order. */
export async function setPaused(w: Work, integrationId: string, paused: boolean) {
  const integration = await lockIntegration(w, integrationId);
  if (integration.paused !== paused) {
    integration.paused = paused;
    integration.updatedAt = w.now;
    await w.em.flush();
    if (!paused) {
      const endpoints = await w.em.find(Endpoint, { integrationId }, { fields: ['id'] });
      await releaseQueue(w, endpoints.map((e) => e.id));
    }
  }
  return { integrationId, paused };
}
