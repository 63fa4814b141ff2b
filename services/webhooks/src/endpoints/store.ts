import { LockMode } from '@mikro-orm/core';
import { mapPage, findPage, actorOf, ApiError, Conflict, newId, NotFound, ValidationError, type EntityManager, type Principal } from '@bop/shared';
import { Endpoint } from './entities';
import { Delivery } from '../deliveries/entities';
import { endpointDto } from './dto';
import { deliveryDto } from '../deliveries/dto';
import { checkEvents, PING_EVENT } from '../event-types/subscriptions';
import { generateSecret, PREVIOUS_SECRET_GRACE_MS } from '../deliveries/signature';
import { deliveryCounts, insertDeliveries, lockQueuesShared, releaseQueue, replayDeliveries } from '../deliveries/store';
import { loadFeatureStates } from '../features/store';
import { checkTarget, type TargetRules } from './targets';

export async function endpointViews(em: EntityManager, endpoints: Endpoint[]) {
  const counts = await deliveryCounts(em, endpoints.map((e) => e.id));
  return endpoints.map((e) => endpointDto(e, counts.get(e.id)));
}

/** `GET /webhook-endpoints`: a page in id order, with each endpoint's pending and failed counts. */
export async function listEndpoints(em: EntityManager, query: { limit?: number; cursor?: string; status?: string }) {
  const { limit, cursor, status } = query;
  const page = await findPage(em, Endpoint, [status && { status }], { limit, cursor });
  const counts = await deliveryCounts(em, page.data.map((e) => e.id));
  return mapPage(page, (e) => endpointDto(e, counts.get(e.id)));
}

/** Every endpoint in id order (the ops CLI's `webhooks list`). */
export async function allEndpointViews(em: EntityManager) {
  return endpointViews(em, await em.find(Endpoint, {}, { orderBy: { id: 'asc' } }));
}

export async function endpointView(em: EntityManager, endpoint: Endpoint) {
  return (await endpointViews(em, [endpoint]))[0];
}

/**
 * Locks an endpoint for a change. The queue lock comes first, as in every writer, so a change that
 * touches the endpoint and its deliveries never waits in a cycle with the worker recording results.
 */
export async function lockEndpoint(em: EntityManager, id: string): Promise<Endpoint> {
  await lockQueuesShared(em);
  const endpoint = await em.findOne(Endpoint, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!endpoint) throw new NotFound('webhook endpoint', id);
  return endpoint;
}

/** Standalone subscriptions: known, available, never the ping, feature on (spec: Events, Subscribing). */
async function standaloneEvents(em: EntityManager, events: string[]): Promise<string[]> {
  const checked = checkEvents(events, { path: 'events', allowPlanned: false, featureStates: await loadFeatureStates(em) });
  if (checked.errors.length > 0) throw new ValidationError(checked.errors);
  return checked.events;
}

/** A new endpoint, active with no failures (persisted at the caller's flush); standalone or an integration's. */
export function newEndpoint(em: EntityManager, fields: Pick<Endpoint, 'url' | 'events' | 'description' | 'integrationId' | 'secret'>, now: Date): Endpoint {
  return em.create(Endpoint, {
    id: newId('webhookEndpoint'),
    ...fields,
    status: 'active',
    disabledReason: null,
    previousSecret: null,
    previousSecretUntil: null,
    consecutiveFailures: 0,
    version: 1,
    createdAt: now,
    updatedAt: now,
  });
}

export async function createEndpoint(em: EntityManager, input: { url: string; events: string[]; description?: string | null }, rules: TargetRules, now: Date) {
  const url = await checkTarget(input.url, rules, 'url');
  const events = await standaloneEvents(em, input.events);
  const secret = generateSecret();
  const endpoint = newEndpoint(em, { url, events, description: input.description ?? null, integrationId: null, secret }, now);
  await em.flush();
  return { ...endpointDto(endpoint), secret, previousSecretExpiresAt: null };
}

export interface EndpointChange {
  url?: string;
  events?: string[];
  description?: string | null;
  status?: 'active' | 'disabled';
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** PATCH: an integration's url and events change only with its manifest (409); `active` re-enables. */
export async function changeEndpoint(em: EntityManager, endpoint: Endpoint, change: EndpointChange, rules: TargetRules, now: Date): Promise<void> {
  let changed = false;
  if (endpoint.integrationId) {
    const urlDiffers = change.url !== undefined && change.url !== endpoint.url;
    const eventsDiffer = change.events !== undefined && !sameList(change.events, endpoint.events);
    if (urlDiffers || eventsDiffer) {
      throw new Conflict(`Endpoint ${endpoint.id} belongs to integration ${endpoint.integrationId}; its url and events change only with the integration's manifest.`);
    }
  } else {
    if (change.url !== undefined) {
      const url = await checkTarget(change.url, rules, 'url');
      if (url !== endpoint.url) {
        endpoint.url = url;
        endpoint.consecutiveFailures = 0;
        changed = true;
      }
    }
    if (change.events !== undefined) {
      const events = await standaloneEvents(em, change.events);
      if (!sameList(events, endpoint.events)) {
        endpoint.events = events;
        changed = true;
      }
    }
  }
  if (change.description !== undefined && change.description !== endpoint.description) {
    endpoint.description = change.description;
    changed = true;
  }
  if (change.status === 'active' && endpoint.status !== 'active') {
    enable(endpoint);
    changed = true;
    await em.flush();
    // spec: States — disabled → active, queued events are sent in order
    await releaseQueue(em, [endpoint.id], now);
  } else if (change.status === 'disabled' && endpoint.status !== 'disabled') {
    endpoint.status = 'disabled';
    endpoint.disabledReason = 'manual';
    changed = true;
  }
  if (changed) {
    endpoint.version += 1;
    endpoint.updatedAt = now;
  }
  await em.flush();
}

/** PATCH under the endpoint's lock; `checkVersion` sees the locked row's version (If-Match). */
export async function patchEndpoint(em: EntityManager, id: string, change: EndpointChange, rules: TargetRules, now: Date, checkVersion: (version: number) => void) {
  return em.transactional(async (tem) => {
    const endpoint = await lockEndpoint(tem, id);
    checkVersion(endpoint.version);
    await changeEndpoint(tem, endpoint, change, rules, now);
    return endpointView(tem, endpoint);
  });
}

function enable(endpoint: Endpoint): void {
  endpoint.status = 'active';
  endpoint.disabledReason = null;
  endpoint.consecutiveFailures = 0;
}

/** PATCH status `active` or the ops CLI's `webhooks enable`. */
export async function enableEndpoint(em: EntityManager, id: string, now: Date) {
  return em.transactional(async (tem) => {
    const endpoint = await lockEndpoint(tem, id);
    await changeEndpoint(tem, endpoint, { status: 'active' }, { allowPrivate: true, allowHttp: true }, now);
    return endpointView(tem, endpoint);
  });
}

export async function deleteEndpoint(em: EntityManager, id: string): Promise<void> {
  await em.transactional(async (tem) => {
    const endpoint = await lockEndpoint(tem, id);
    if (endpoint.integrationId) {
      throw new Conflict(`Endpoint ${id} belongs to integration ${endpoint.integrationId}; it changes only with the integration's manifest.`);
    }
    // deliveries go with it (on delete cascade)
    tem.remove(endpoint);
  });
}

export async function rotateSecret(em: EntityManager, id: string, now: Date) {
  return em.transactional(async (tem) => {
    const endpoint = await lockEndpoint(tem, id);
    if (endpoint.integrationId) {
      throw new Conflict(`Endpoint ${id} signs with the secret of integration ${endpoint.integrationId}; rotate it through the integration.`);
    }
    const secret = generateSecret();
    const until = new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS);
    endpoint.previousSecret = endpoint.secret;
    endpoint.previousSecretUntil = until;
    endpoint.secret = secret;
    endpoint.version += 1;
    endpoint.updatedAt = now;
    await tem.flush();
    return { ...(await endpointView(tem, endpoint)), secret, previousSecretExpiresAt: until.toISOString() };
  });
}

/** `:ping` — a signed webhook.ping to this endpoint only, outside any subscription. */
export async function pingEndpoint(em: EntityManager, id: string, actor: Principal, now: Date) {
  return em.transactional(async (tem) => {
    const endpoint = await tem.findOne(Endpoint, { id });
    if (!endpoint) throw new NotFound('webhook endpoint', id);
    const eventId = newId('event');
    const body = JSON.stringify({
      id: eventId,
      type: PING_EVENT,
      createdAt: now.toISOString(),
      apiVersion: 'v1',
      actor: actorOf(actor),
      locationId: null,
      data: { object: { endpointId: endpoint.id } },
    });
    const deliveryId = newId('webhookDelivery');
    await insertDeliveries(tem, [{ id: deliveryId, endpointId: endpoint.id, eventId, eventType: PING_EVENT, recordKey: eventId, body }], now);
    return deliveryDto(await tem.findOneOrFail(Delivery, { id: deliveryId }));
  });
}

/** `:retry-failed` (and the ops CLI): every failed delivery of the endpoint queued again, ids kept. */
export async function retryFailed(em: EntityManager, id: string, now: Date): Promise<number> {
  return em.transactional(async (tem) => {
    const endpoint = await tem.findOne(Endpoint, { id });
    if (!endpoint) throw new NotFound('webhook endpoint', id);
    return replayDeliveries(tem, { endpointId: id, status: 'failed' }, now);
  });
}

export function assertEveryone(reach: { everyone: boolean }): void {
  if (!reach.everyone) throw new ApiError('out_of_reach', 'Webhook endpoints carry events of every location; managing them needs webhooks.manage at reach Everyone.');
}
