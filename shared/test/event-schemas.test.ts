// The per-event-type JSON Schemas published to the Schema Registry, and their committed snapshot.
// (Their BACKWARD compatibility is judged by the registry itself: event-schemas.kafka.test.ts.)
import { SchemaType } from '@kafkajs/confluent-schema-registry';
// the validator the registry client runs on encode and decode, on the consumers' side too (ajv 7)
import JsonSchema from '@kafkajs/confluent-schema-registry/dist/JsonSchema';
import { EventEnvelope, eventTypes, Location } from '@bop/contracts';
import { eventObjectSchemas } from '../src/bus/event-objects';
import { eventJsonSchema, eventSubject, eventTypeJsonSchema, eventTypeSchemas } from '../src/bus/schemas';
import { generatedSchemaFiles, INTERNAL_SCHEMA_FILE, readSchemaSnapshot, schemaFileText } from '../src/bus/schema-snapshot';

function validator(schema: Record<string, unknown>) {
  const compiled = new JsonSchema({ type: SchemaType.JSON, schema: JSON.stringify(schema) });
  // isValid answers true for invalid payloads unless given an errorHook (as toBuffer gives it)
  return (payload: unknown) => compiled.isValid(payload as object, { errorHook: () => undefined });
}

const location = {
  id: 'loc_01JD0000000000000000000001',
  name: 'Harbour St',
  externalId: null,
  timezone: 'Europe/Berlin',
  businessDayCutoff: '04:00',
  orgUnitId: null,
  address: { line1: '1 Harbour St', city: 'Hamburg', country: 'DE' },
  status: 'active',
  version: 2,
  createdAt: '2026-11-21T09:00:00.000Z',
  updatedAt: '2026-11-21T09:30:00.000Z',
  archivedAt: null,
};

function envelope(type: string, object: Record<string, unknown>, previous?: Record<string, unknown>) {
  return {
    id: 'evt_01JD0000000000000000000001',
    type,
    createdAt: '2026-11-21T09:30:00.000Z',
    apiVersion: 'v1',
    actor: { type: 'user', id: 'usr_01JD0000000000000000000001' },
    locationId: location.id,
    data: previous ? { object, previous } : { object },
  };
}

describe('event type schemas', () => {
  it('cover every catalogued type, each draft-07 with its type fixed, compiling under the registry client', () => {
    const all = eventTypeSchemas();
    expect(all.map((s) => s.type)).toEqual(eventTypes.map((e) => e.type));
    for (const { type, topic, schema } of all) {
      expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
      expect(schema.title).toBe(type);
      expect((schema.properties as Record<string, unknown>).type).toEqual({ type: 'string', const: type });
      expect(topic).toBe(eventTypes.find((e) => e.type === type)!.service);
      expect(() => validator(schema)).not.toThrow();
    }
  });

  it('name only catalogued types for their resources', () => {
    const catalogued = new Set(eventTypes.map((e) => e.type));
    expect(Object.keys(eventObjectSchemas).filter((t) => !catalogued.has(t))).toEqual([]);
  });

  it('hold data.object to the resource: a real location event passes, a short or padded one does not', () => {
    const isValid = validator(eventTypeJsonSchema('location.updated'));
    expect(Location.safeParse(location).success).toBe(true);
    const updated = envelope('location.updated', location, { name: 'Harbor St' });
    expect(EventEnvelope.safeParse(updated).success).toBe(true);
    expect(isValid(updated)).toBe(true);
    const { name: _name, ...noName } = location;
    expect(isValid(envelope('location.updated', noName))).toBe(false);
    expect(isValid(envelope('location.updated', { ...location, extra: 1 }))).toBe(false);
    expect(isValid(envelope('location.updated', { ...location, status: 'closed' }))).toBe(false);
    // the type is part of the schema: one type's schema refuses another's events
    expect(isValid(envelope('location.created', location))).toBe(false);
    // the generic envelope took any object
    expect(validator(eventJsonSchema())(envelope('location.updated', noName))).toBe(true);
  });

  it('give a catalogued type without a resource the generic object, and internal types the generic envelope', () => {
    const ping = eventTypeJsonSchema('webhook.ping');
    expect(validator(ping)(envelope('webhook.ping', { anything: true }))).toBe(true);
    expect(eventTypeJsonSchema('sales.transactions.recorded')).toEqual(eventJsonSchema());
  });

  it('carry no `format`: ajv 7 refuses to compile formats it does not know (zod writes a pattern beside it)', () => {
    const punch = eventTypeJsonSchema('punch.received');
    expect(JSON.stringify(punch)).not.toMatch(/"format":/);
    const occurredAt = (punch.properties as any).data.properties.object.properties.occurredAt as Record<string, unknown>;
    expect(occurredAt).toEqual({ type: 'string', pattern: expect.any(String) });
    const isValid = validator(punch);
    const object = { id: 'pun_1', source: 'clock-1', externalId: 'a-in', employeeId: 'emp_1', locationId: location.id, type: 'clock_in', occurredAt: '2026-02-02T09:00:00.000Z', deviceId: null, position: null, status: 'active', heldReason: null, exceptions: [], payPeriodId: null, version: 1, updatedAt: '2026-02-02T09:00:01.000Z' };
    expect(isValid(envelope('punch.received', object))).toBe(true);
    expect(isValid(envelope('punch.received', { ...object, occurredAt: 'Monday morning' }))).toBe(false);
  });

  it('are registered per topic and type (TopicRecordNameStrategy)', () => {
    expect(eventSubject('acme-organization', 'location.updated')).toBe('acme-organization-location.updated');
  });
});

describe('the committed snapshot (contracts/event-schemas)', () => {
  it('is what the contracts generate today (after a contract change: npm run schemas:snapshot, then the registry test judges it)', () => {
    const committed = readSchemaSnapshot();
    const generated = generatedSchemaFiles();
    expect([...committed.keys()].sort()).toEqual([...generated.keys()].sort());
    const differing = [...generated].filter(([name, schema]) => schemaFileText(schema) !== schemaFileText(committed.get(name) ?? {})).map(([name]) => name);
    expect(differing).toEqual([]);
    expect(committed.get(INTERNAL_SCHEMA_FILE)).toEqual(eventJsonSchema());
  });
});
