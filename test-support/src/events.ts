/** Events as another service's relay would publish them (the bus is real; only the sender is the test). */
import { Client } from 'pg';
import { newId, type Bus, type ConsumedMessage } from '@bop/shared';
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

/**
 * Every message on a Postgres bus's `topic` so far, in order, read by a throwaway group: it reads until
 * it has as many as the bus holds at the call (no waiting for a time: the read is the barrier).
 */
export async function topicSoFar(bus: Bus, connectionString: string, topic: string): Promise<ConsumedMessage[]> {
  const c = new Client({ connectionString });
  await c.connect();
  let held: number;
  try {
    held = Number((await c.query(`select count(*) as n from bus.messages where topic = $1`, [topic])).rows[0].n);
  } finally {
    await c.end();
  }
  const seen: ConsumedMessage[] = [];
  let done!: () => void;
  const all = new Promise<void>((r) => (done = r));
  if (held === 0) done();
  const sub = await bus.subscribe({
    group: `peek-${newId('event')}`,
    topics: [topic],
    handler: async (b) => {
      seen.push(...b);
      if (seen.length >= held) done();
    },
  });
  try {
    await all;
  } finally {
    await sub.stop();
  }
  return seen.slice(0, held);
}

/** A gate a test opens when it chooses: `await g.opened` holds work (a transaction before its commit) until `g.open()`. */
export function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}
