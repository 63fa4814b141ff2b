import { eventTypes, featureChain, type EventTypeDef } from '@bop/contracts';

export const PING_EVENT = 'webhook.ping';
/** `["*"]` subscribes to every event (spec: Events, Subscribing). */
export const WILDCARD_EVENTS = '*';

const byType = new Map(eventTypes.map((e) => [e.type, e]));

export function eventTypeDef(type: string): EventTypeDef | undefined {
  return byType.get(type);
}

/** Public, available, and not the ping (spec: Event catalog; internal types are never delivered). */
export function isDeliverableType(type: string): boolean {
  const def = byType.get(type);
  return def !== undefined && !def.planned && def.type !== PING_EVENT;
}

/**
 * A feature is on when neither it nor an ancestor is known to be off (the replica holds what identity
 * announced; an unknown switch is on, as identity's defaults are).
 */
export function featureOn(feature: string | null, effective: ReadonlyMap<string, boolean>): boolean {
  if (!feature) return true;
  return featureChain(feature).every((k) => effective.get(k) !== false);
}

export interface Subscriber {
  events: string[];
  /** the integration's scopes; null for a standalone endpoint */
  scopes: string[] | null;
}

/** spec: Events, Subscribing — listed type or `["*"]`; an integration only for events its scopes cover. */
export function subscribes(endpoint: Subscriber, def: EventTypeDef): boolean {
  if (def.type === PING_EVENT) return false;
  if (!endpoint.events.includes(WILDCARD_EVENTS) && !endpoint.events.includes(def.type)) return false;
  return endpoint.scopes === null || def.scopes.some((s) => endpoint.scopes!.includes(s));
}

export interface FieldError {
  path: string;
  message: string;
}

export interface EventsRules {
  /** the field path, e.g. `events` or `webhooks[0].events` */
  path: string;
  /** integration endpoints: each listed type must be covered by one of these */
  scopes?: string[];
  /** standalone endpoints: only events of enabled features can be subscribed to */
  featureStates?: ReadonlyMap<string, boolean>;
  /** planned events are refused for standalone endpoints (not yet available); a manifest may name them */
  allowPlanned: boolean;
}

/** Checks a subscription list; returns it de-duplicated with the field errors found. */
export function checkEvents(events: string[], rules: EventsRules): { events: string[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const unique = [...new Set(events)];
  if (unique.includes(WILDCARD_EVENTS)) {
    if (unique.length > 1) errors.push({ path: rules.path, message: '"*" subscribes to every event and must stand alone.' });
    return { events: [WILDCARD_EVENTS], errors };
  }
  events.forEach((type, i) => {
    const path = `${rules.path}[${i}]`;
    const def = byType.get(type);
    if (!def) errors.push({ path, message: `Unknown event type ${type}; GET /event-types lists them.` });
    else if (def.type === PING_EVENT) errors.push({ path, message: 'webhook.ping is sent only by the ping operation and cannot be subscribed to.' });
    else if (def.planned && !rules.allowPlanned) errors.push({ path, message: `${type} is planned and not yet available.` });
    else if (rules.featureStates && !featureOn(def.feature, rules.featureStates)) {
      errors.push({ path, message: `${type} belongs to the feature ${def.feature}, which is switched off.` });
    } else if (rules.scopes && !def.scopes.some((s) => rules.scopes!.includes(s))) {
      errors.push({ path, message: `${type} needs one of the scopes ${def.scopes.join(', ')}.` });
    }
  });
  return { events: unique, errors };
}
