import { LockMode } from '@mikro-orm/core';
import { mapPage, findPage, actorOf, ApiError, Conflict, newId, NotFound, ValidationError, type Work } from '@bop/shared';
import { Endpoint } from './entities';
import { Delivery } from '../deliveries/entities';
import { endpointDto } from './dto';
import { deliveryDto } from '../deliveries/dto';
import { checkEvents, PING_EVENT } from '../event-types/subscriptions';
import { generateSecret, PREVIOUS_SECRET_GRACE_MS } from '../deliveries/signature';
import { deliveryCounts, insertDeliveries, lockQueuesShared, releaseQueue, replayDeliveries } from '../deliveries/store';
import { loadFeatureStates } from '../features/store';
import { checkTarget, type TargetRules } from './targets';

export async function endpointViews(w: Work, endpoints: Endpoint[]) {
  const counts = await deliveryCounts(w, endpoints.map((e) => e.id));
  return endpoints.map((e) => endpointDto(e, counts.get(e.id)));
}

/** `GET /webhook-endpoints`: a page in id order (change order with `updatedSince`), with each endpoint's pending and failed counts. */
export async function listEndpoints(w: Work, query: { limit?: number; cursor?: string; status?: string; updatedSince?: string }) {
  const { limit, cursor, status, updatedSince } = query;
  const page = await findPage(w.em, Endpoint, [status && { status }], { limit, cursor, updatedSince });
  const counts = await deliveryCounts(w, page.data.map((e) => e.id));
  return mapPage(page, (e) => endpointDto(e, counts.get(e.id)));
}

/** Every endpoint in id order (the ops CLI's `webhooks list`). */
export async function allEndpointViews(w: Work) {
  return endpointViews(w, await w.em.find(Endpoint, {}, { orderBy: { id: 'asc' } }));
}

export async function endpointView(w: Work, endpoint: Endpoint) {
  return (await endpointViews(w, [endpoint]))[0];
}

/**
 * Locks an endpoint for a change. The queue lock comes first, as in every writer, so a change that
 * touches the endpoint and its deliveries never waits in a cycle with the worker recording results.
 */
export async function lockEndpoint(w: Work, id: string): Promise<Endpoint> {
  await lockQueuesShared(w);
  const endpoint = await w.em.findOne(Endpoint, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!endpoint) throw new NotFound('webhook endpoint', id);
  return endpoint;
}

/** Standalone subscriptions: known, available, never the ping, feature on (spec: Events, Subscribing). */
async function standaloneEvents(w: Work, events: string[]): Promise<string[]> {
  const checked = checkEvents(events, { path: 'events', allowPlanned: false, featureStates: await loadFeatureStates(w) });
  if (checked.errors.length > 0) throw new ValidationError(checked.errors);
  return checked.events;
}

/** A new endpoint, active with no failures (persisted at the unit's flush); standalone or an integration's. */
export function newEndpoint(w: Work, fields: Pick<Endpoint, 'url' | 'events' | 'description' | 'integrationId' | 'secret'>): Endpoint {
  const now = w.now;
  return w.em.create(Endpoint, {
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

export async function createEndpoint(w: Work, input: { url: string; events: string[]; description?: string | null }, rules: TargetRules) {
  const url = await checkTarget(input.url, rules, 'url');
  const events = await standaloneEvents(w, input.events);
  const secret = generateSecret();
  const endpoint = newEndpoint(w, { url, events, description: input.description ?? null, integrationId: null, secret });
  await w.em.flush();
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
export async function changeEndpoint(w: Work, endpoint: Endpoint, change: EndpointChange, rules: TargetRules): Promise<void> {
  const { em, now } = w;
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
      const events = await standaloneEvents(w, change.events);
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
    await releaseQueue(w, [endpoint.id]);
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

/** PATCH under the endpoint's lock; If-Match is checked against the locked row's version. */
export async function patchEndpoint(w: Work, id: string, change: EndpointChange, rules: TargetRules) {
  const endpoint = await lockEndpoint(w, id);
  w.checkVersion(endpoint.version);
  await changeEndpoint(w, endpoint, change, rules);
  return endpointView(w, endpoint);
}

function enable(endpoint: Endpoint): void {
  endpoint.status = 'active';
  endpoint.disabledReason = null;
  endpoint.consecutiveFailures = 0;
}

/** PATCH status `active` or the ops CLI's `webhooks enable`. */
export async function enableEndpoint(w: Work, id: string) {
  const endpoint = await lockEndpoint(w, id);
  await changeEndpoint(w, endpoint, { status: 'active' }, { allowPrivate: true, allowHttp: true });
  return endpointView(w, endpoint);
}

export async function deleteEndpoint(w: Work, id: string): Promise<void> {
  const endpoint = await lockEndpoint(w, id);
  if (endpoint.integrationId) {
    throw new Conflict(`Endpoint ${id} belongs to integration ${endpoint.integrationId}; it changes only with the integration's manifest.`);
  }
  // deliveries go with it (on delete cascade)
  w.em.remove(endpoint);
}

export async function rotateSecret(w: Work, id: string) {
  const now = w.now;
  const endpoint = await lockEndpoint(w, id);
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
  await w.em.flush();
  return { ...(await endpointView(w, endpoint)), secret, previousSecretExpiresAt: until.toISOString() };
}

/** `:ping` — a signed webhook.ping to this endpoint only, outside any subscription; signed as the unit's actor. */
export async function pingEndpoint(w: Work, id: string) {
  const endpoint = await w.em.findOne(Endpoint, { id });
  if (!endpoint) throw new NotFound('webhook endpoint', id);
  const eventId = newId('event');
  const body = JSON.stringify({
    id: eventId,
    type: PING_EVENT,
    createdAt: w.now.toISOString(),
    apiVersion: 'v1',
    actor: actorOf(w.actor),
    locationId: null,
    data: { object: { endpointId: endpoint.id } },
  });
  const deliveryId = newId('webhookDelivery');
  await insertDeliveries(w, [{ id: deliveryId, endpointId: endpoint.id, eventId, eventType: PING_EVENT, recordKey: eventId, body }]);
  return deliveryDto(await w.em.findOneOrFail(Delivery, { id: deliveryId }));
}

/** `:retry-failed` (and the ops CLI): every failed delivery of the endpoint queued again, ids kept. */
export async function retryFailed(w: Work, id: string): Promise<number> {
  const endpoint = await w.em.findOne(Endpoint, { id });
  if (!endpoint) throw new NotFound('webhook endpoint', id);
  return replayDeliveries(w, { endpointId: id, status: 'failed' });
}

export function assertEveryone(reach: { everyone: boolean }): void {
  if (!reach.everyone) throw new ApiError('out_of_reach', 'Webhook endpoints carry events of every location; managing them needs webhooks.manage at reach Everyone.');
}
