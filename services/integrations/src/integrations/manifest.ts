import { eventTypes, scopes as catalogueScopes, type EventTypeDef } from '@bop/contracts';

/** The parts of a manifest these rules read (the zod-parsed manifest fits). */
export interface ManifestLike {
  scopes: string[];
  webhooks: Array<{ url: string; events: string[] }>;
  config: Array<{ key: string; secret: boolean; required?: boolean }>;
}

export interface FieldError {
  path: string;
  message: string;
}

const knownScopes = new Set(catalogueScopes);
const eventsByType = new Map<string, EventTypeDef>(eventTypes.map((e) => [e.type, e]));
const at = (prefix: string, rest: string) => (prefix ? `${prefix}.${rest}` : rest);

/**
 * Why an integration with these scopes may not subscribe to `type`, or null when it may
 * (spec: Events → Subscribing: only events its scopes cover; `webhook.ping` cannot be subscribed to).
 * A manifest may name planned events: they are delivered once available.
 */
export function subscriptionProblem(type: string, scopes: ReadonlySet<string>): string | null {
  const def = eventsByType.get(type);
  if (!def) return 'Not a known event type.';
  if (def.type === 'webhook.ping') return 'webhook.ping is sent only by the ping operation and cannot be subscribed to.';
  if (!def.scopes.some((s) => scopes.has(s))) return `Needs one of the scopes ${def.scopes.join(', ')} in the manifest.`;
  return null;
}

/** The catalogue rules zod cannot state: known scopes, covered events, nothing listed twice. */
export function manifestErrors(manifest: ManifestLike, prefix = ''): FieldError[] {
  const errors: FieldError[] = [];
  const scopes = new Set<string>();
  manifest.scopes.forEach((scope, i) => {
    if (!knownScopes.has(scope)) errors.push({ path: at(prefix, `scopes[${i}]`), message: 'Not a known scope.' });
    else if (scopes.has(scope)) errors.push({ path: at(prefix, `scopes[${i}]`), message: 'Listed twice.' });
    scopes.add(scope);
  });
  const urls = new Set<string>();
  manifest.webhooks.forEach((hook, w) => {
    if (urls.has(hook.url)) errors.push({ path: at(prefix, `webhooks[${w}].url`), message: 'Listed twice; put all its events in one entry.' });
    urls.add(hook.url);
    if (hook.events.includes('*') && hook.events.length > 1) {
      errors.push({ path: at(prefix, `webhooks[${w}].events`), message: '"*" (every event the scopes cover) stands alone.' });
      return;
    }
    const seen = new Set<string>();
    hook.events.forEach((type, e) => {
      const path = at(prefix, `webhooks[${w}].events[${e}]`);
      if (type === '*') return;
      if (seen.has(type)) errors.push({ path, message: 'Listed twice.' });
      seen.add(type);
      const problem = subscriptionProblem(type, scopes);
      if (problem) errors.push({ path, message: problem });
    });
  });
  const keys = new Set<string>();
  manifest.config.forEach((field, i) => {
    if (keys.has(field.key)) errors.push({ path: at(prefix, `config[${i}].key`), message: 'Declared twice.' });
    keys.add(field.key);
  });
  return errors;
}

/** Scope sets compared as sets. */
export function sameScopes(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((s) => sb.has(s));
}

/** Whether `next` drops any scope of `previous` (then old keys must stop at once). */
export function scopesNarrowed(previous: readonly string[], next: readonly string[]): boolean {
  const sn = new Set(next);
  return previous.some((s) => !sn.has(s));
}
