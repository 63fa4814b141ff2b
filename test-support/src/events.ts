/** Events as another service's relay would publish them (the bus is real; only the sender is the test). */
import { newId } from '@bop/shared';
import type { TestServices } from './harness';

/** An event envelope as a relay would publish it: by the system, no location unless `over` says. */
export function envelope(type: string, object: Record<string, unknown>, over: Record<string, unknown> = {}) {
  return {
    id: newId('event'),
    type,
    createdAt: new Date().toISOString(),
    apiVersion: 'v1' as const,
    actor: { type: 'system' as const, id: null },
    locationId: null,
    data: { object },
    ...over,
  };
}

/** Publishes an event on the stack's bus under `topic` (keyed by the object's id); answers its envelope. */
export async function publishEvent(stack: TestServices, topic: string, type: string, object: Record<string, unknown>, over: Record<string, unknown> = {}) {
  const event = envelope(type, object, over);
  await stack.bus.publish([{ topic, key: String(object.id), eventId: event.id, type, payload: event }]);
  return event;
}
