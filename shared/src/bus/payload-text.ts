/**
 * The JSON text an event payload object was parsed from, kept beside the object (by identity: the
 * bus interface is unchanged). The relay reads each outbox payload as the text the service stored
 * and parses it once; an adapter that writes JSON (Kafka's codec) then writes that text instead of
 * serialising the object again — the same JSON value, one `JSON.stringify` per event less.
 */
const texts = new WeakMap<object, string>();

/** `text` parsed, remembered with its text (a payload that is not an object is answered as parsed, remembered with nothing). */
export function parsePayload(text: string): Record<string, unknown> {
  const payload = JSON.parse(text) as Record<string, unknown>;
  if (payload !== null && typeof payload === 'object') texts.set(payload, text);
  return payload;
}

/** The payload's JSON: the text it was parsed from when `parsePayload` made it, else `JSON.stringify`. */
export function payloadJson(payload: Record<string, unknown>): string {
  return texts.get(payload) ?? JSON.stringify(payload);
}
