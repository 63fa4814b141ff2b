import { emitExemptions, emits, endpointKey, endpoints, eventTypes } from '@bop/contracts';

/**
 * Issue 41 item 3: a change event for every mutation. Every mutating row of the catalogue is in the
 * table of contracts/src/catalogue/emits.ts with the public event types it records, or an exemption of
 * the table's short list. What the routes really record is checked by the jest run's recorder
 * (shared/src/emit-recorder.ts, test/global-teardown.mjs).
 */
const mutating = endpoints.filter((row) => row.method !== 'GET').map(endpointKey);
const catalogue = new Map(eventTypes.map((e) => [e.type, e]));

describe('change events (emits table)', () => {
  it('lists every mutating catalogue row, and no other', () => {
    const missing = mutating.filter((key) => !(key in emits));
    const unknown = Object.keys(emits).filter((key) => !mutating.includes(key));
    expect({ missing, unknown }).toEqual({ missing: [], unknown: [] });
  });

  it('gives each row a public, available event type of the catalogue, or an allowed exemption', () => {
    const wrong: string[] = [];
    const none: string[] = [];
    for (const key of mutating) {
      const row = emits[key];
      if (!row) continue;
      if ('exempt' in row) {
        if (!(row.exempt in emitExemptions)) wrong.push(`${key}: exemption ${String(row.exempt)} is none of ${Object.keys(emitExemptions).join(', ')}`);
        continue;
      }
      for (const type of row.events) {
        const def = catalogue.get(type);
        if (!def) wrong.push(`${key}: ${type} is no public event type of the catalogue (internal types do not count)`);
        else if (def.planned) wrong.push(`${key}: ${type} is planned, not available`);
      }
      if (row.events.length === 0) none.push(key);
    }
    expect(wrong).toEqual([]);
    // a row that records no public event fails here, named, unless it is a known gap
    expect(none).toEqual([]);
  });

  it('lists each type once per row', () => {
    const twice = Object.entries(emits).filter(([, row]) => 'events' in row && new Set(row.events).size !== row.events.length).map(([key]) => key);
    expect(twice).toEqual([]);
  });
});

describe('change events (the run\'s check)', () => {
  const { checkEmits } = require('./emits-check.mjs') as typeof import('./emits-check.mjs');
  const table = { 'POST /locations': { events: ['location.created'] }, 'POST /auth/sign-in': { exempt: 'not_a_change' }, 'POST /items': { events: ['item.created'] } };

  it('names a row seen recording a type it does not list, counting the internal routes its request called', () => {
    const { wrong, seen, unexercised } = checkEmits(
      [
        { route: 'POST /locations', requestId: 'req_1', types: ['location.created'] },
        { route: 'POST /internal/anything', requestId: 'req_1', types: ['employee.updated'] },
        { route: 'POST /auth/sign-in', requestId: 'req_2', types: ['location.updated'] },
        { route: 'POST /internal/other', requestId: 'req_9', types: ['item.updated'] },
      ],
      table,
    );
    expect(wrong).toEqual(['POST /auth/sign-in: location.updated (exempt: not_a_change)', 'POST /locations: employee.updated']);
    expect(seen.sort()).toEqual(['POST /auth/sign-in', 'POST /locations']);
    expect(unexercised).toEqual(['POST /items']);
  });
});
