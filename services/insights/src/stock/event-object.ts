import type { ZodType } from 'zod';

/** An event's `data.object` by its contract, or an error that parks the event (a producer's bug: parked in dead_letters rather than dropped or guessed). */
export function eventObject<T>(schema: ZodType<T>, event: { id: string; type: string; data: { object: unknown } }, what: string): T {
  const parsed = schema.safeParse(event.data.object);
  if (!parsed.success) throw new Error(`${event.type} ${event.id}: data.object is not ${what} (${parsed.error.issues.map((i) => i.path.join('.') || '(object)').join(', ')})`);
  return parsed.data;
}
