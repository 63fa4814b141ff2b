/**
 * The compatibility guard: the registry (Apicurio's Confluent-compatible API in `npm run kafka:local`,
 * a `*.kafka.test.ts` suite) judges every event type's current schema against the committed
 * snapshot under BACKWARD, the compatibility each subject gets when first registered — so a
 * contract change that would break consumers of events already on the topics fails here, with
 * the registry's reason. Each run registers under its own subjects (`guard-<random>-<type>`).
 */
import { randomBytes } from 'node:crypto';
import { Location } from '@bop/contracts';
import { envelopeJsonSchema, type JsonSchemaObject } from '../src/bus/schemas';
import { generatedSchemaFiles, INTERNAL_SCHEMA_FILE, readSchemaSnapshot } from '../src/bus/schema-snapshot';

const registryUrl = process.env.SCHEMA_REGISTRY_URL;
if (!registryUrl) throw new Error('the schema guard needs SCHEMA_REGISTRY_URL (npm run kafka:local prints it)');
const run = `guard-${randomBytes(4).toString('hex')}`;

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${registryUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json', accept: 'application/vnd.schemaregistry.v1+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const asBody = (schema: JsonSchemaObject) => ({ schemaType: 'JSON', schema: JSON.stringify(schema) });

/** Registers `schema` under `subject`: the id, or the registry's refusal (status and message). */
async function register(subject: string, schema: JsonSchemaObject): Promise<{ id?: number; status: number; message?: string }> {
  const r = await call('POST', `/subjects/${encodeURIComponent(subject)}/versions`, asBody(schema));
  return r.status === 200 ? { id: r.body.id, status: 200 } : { status: r.status, message: r.body.message };
}

/** A subject holding `published` with BACKWARD compatibility, as the codec leaves each subject. */
async function publishedSubject(name: string, published: JsonSchemaObject): Promise<string> {
  const subject = `${run}-${name}`;
  const registered = await register(subject, published);
  if (registered.status !== 200) throw new Error(`registering the snapshot of ${name}: ${registered.status} ${registered.message}`);
  const config = await call('PUT', `/config/${encodeURIComponent(subject)}`, { compatibility: 'BACKWARD' });
  expect(config.status).toBe(200);
  expect((await call('GET', `/config/${encodeURIComponent(subject)}`)).body).toEqual({ compatibilityLevel: 'BACKWARD' });
  return subject;
}

async function isCompatible(subject: string, schema: JsonSchemaObject): Promise<boolean> {
  const r = await call('POST', `/compatibility/subjects/${encodeURIComponent(subject)}/versions/latest`, asBody(schema));
  if (r.status !== 200) throw new Error(`compatibility check of ${subject}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.is_compatible as boolean;
}

/** The registry's verdict on `current` against `published`: null when compatible, else its reason. */
async function judge(name: string, published: JsonSchemaObject, current: JsonSchemaObject): Promise<string | null> {
  const subject = await publishedSubject(name, published);
  if (await isCompatible(subject, current)) return null;
  // the compatibility endpoint answers only false: registering names the differences
  const refused = await register(subject, current);
  return `${refused.status} ${refused.message ?? '(registered after all)'}`;
}

async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

describe('event schemas under BACKWARD compatibility (the registry judges)', () => {
  it('every committed event schema is read by what the contracts generate today', async () => {
    const committed = readSchemaSnapshot();
    const current = generatedSchemaFiles();
    expect(committed.size).toBe(current.size);
    const verdicts = await inBatches([...committed], 8, async ([file, published]) => {
      const type = file === INTERNAL_SCHEMA_FILE ? '(internal types)' : file.replace(/\.json$/, '');
      const now = current.get(file);
      if (!now) return `${type}: no longer published (removed from the catalogue: consumers still read it)`;
      const reason = await judge(file.replace(/\.json$/, ''), published, now);
      return reason && `${type}: ${reason}`;
    });
    expect(verdicts.filter(Boolean)).toEqual([]);
  });

  describe('the guard bites (location.updated as the committed contract)', () => {
    const published = readSchemaSnapshot().get('location.updated.json')!;
    const changed = (object: Parameters<typeof envelopeJsonSchema>[1]) => envelopeJsonSchema('location.updated', object, 'a changed contract');

    it('the committed schema is the contracts\' today (the base of the cases below)', () => {
      expect(changed(Location)).toEqual({ ...published, description: 'a changed contract' });
    });

    // the diff Apicurio 3.0.9 names is noted (Confluent's registry words its 409 otherwise)
    it.each([
      ['a new required property', () => changed(Location.extend({ taxRegion: Location.shape.name })), /REQUIRED/], // OBJECT_TYPE_REQUIRED_PROPERTIES_MEMBER_ADDED
      ['a removed property consumers read', () => changed(Location.omit({ externalId: true })), /./], // OBJECT_TYPE_PROPERTY_SCHEMAS_NARROWED
      ['a narrowed enum', () => changed(Location.extend({ status: Location.shape.status.exclude(['archived']) })), /./], // COMBINED_TYPE_SUBSCHEMA_NOT_COMPATIBLE
      ['a nullable property made non-null', () => changed(Location.extend({ archivedAt: Location.shape.name })), /./], // SUBSCHEMA_TYPE_CHANGED
    ])('refuses %s (is_compatible false, 409 on register)', async (_what, schema, reason) => {
      const subject = await publishedSubject(`bites-${randomBytes(3).toString('hex')}`, published);
      expect(await isCompatible(subject, schema())).toBe(false);
      const refused = await register(subject, schema());
      expect(refused.status).toBe(409);
      expect(refused.message).toMatch(reason);
    });

    it('accepts a new optional property (and registers it as the next version)', async () => {
      const subject = await publishedSubject(`accepts-${randomBytes(3).toString('hex')}`, published);
      const schema = changed(Location.extend({ taxRegion: Location.shape.name.optional() }));
      expect(await isCompatible(subject, schema)).toBe(true);
      expect((await register(subject, schema)).status).toBe(200);
      expect((await call('GET', `/subjects/${encodeURIComponent(subject)}/versions`)).body).toEqual([1, 2]);
    });
  });
});
