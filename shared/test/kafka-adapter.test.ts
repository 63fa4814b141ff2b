// The kafka bus adapter's pure parts, without a broker. (With KAFKA_BROKERS set, the bus contract
// suite also runs against the adapter through kafkaBusFactoryFromEnv.)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
// the validator the registry client itself runs on encode and decode (ajv 7)
import JsonSchema from '@kafkajs/confluent-schema-registry/dist/JsonSchema';
import { logLevel, Partitioners, type EachBatchPayload, type KafkaMessage, type PartitionMetadata } from 'kafkajs';

import { EventEnvelope } from '@bop/contracts';
import {
  allTopicsPattern,
  areaOf,
  createPayloadCodec,
  commitGathered,
  fromKafkaMessage,
  Gather,
  KeyHashPartitioner,
  murmur2,
  kafkaBusFactoryFromEnv,
  kafkaLogLevel,
  kafkaTopic,
  nextOffset,
  pinoLogCreator,
  processBatch,
  retryDelayMs,
  toKafkaMessage,
  toTopicBatches,
  toSizedSends,
  type BatchRun,
} from '../src/bus/kafka';
import { eventJsonSchema, eventTypeJsonSchema } from '../src/bus/schemas';
import { parsePayload } from '../src/bus/payload-text';
import type { BusMessage, ConsumedMessage } from '../src/bus/types';

function envelope(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'evt_01JD0000000000000000000001',
    type: 'location.updated',
    createdAt: '2026-11-21T09:30:00.000Z',
    apiVersion: 'v1',
    actor: { type: 'user', id: 'usr_01JD0000000000000000000001' },
    locationId: 'loc_01JD0000000000000000000001',
    data: { object: { id: 'loc_01JD0000000000000000000001', name: 'Harbour St', version: 2 }, previous: { name: 'Harbor St' } },
    ...overrides,
  };
}

function busMessage(overrides: Partial<BusMessage> = {}): BusMessage {
  const payload = envelope();
  return { topic: 'organization', key: 'loc_01JD0000000000000000000001', eventId: payload.id as string, type: payload.type as string, payload, ...overrides };
}

function record(offset: string, payload: Record<string, unknown>, headers: KafkaMessage['headers'] = {}, key: string | null = 'rec_1'): KafkaMessage {
  return {
    key: key === null ? null : Buffer.from(key),
    value: Buffer.from(JSON.stringify(payload)),
    timestamp: '0',
    attributes: 0,
    offset,
    headers: { 'event-id': Buffer.from(String(payload.id)), 'event-type': Buffer.from(String(payload.type)), ...headers },
  } as KafkaMessage;
}

describe('kafka record mapping', () => {
  it('puts the prefix on the area and takes it off again', () => {
    expect(kafkaTopic('', 'sales')).toBe('sales');
    expect(kafkaTopic('test-ab12-', 'sales')).toBe('test-ab12-sales');
    expect(areaOf('test-ab12-', 'test-ab12-sales')).toBe('sales');
    expect(areaOf('', 'sales')).toBe('sales');
  });

  it('keys by record id, sends event id and type as headers, keeps extra headers', () => {
    const m = busMessage({ headers: { traceparent: '00-abc-def-01', 'event-id': 'forged' } });
    const value = Buffer.from('{}');
    const r = toKafkaMessage(m, value);
    expect(r.key).toBe('loc_01JD0000000000000000000001');
    expect(r.value).toBe(value);
    expect(r.headers).toEqual({ traceparent: '00-abc-def-01', 'event-id': m.eventId, 'event-type': 'location.updated' });
  });

  it('sends runs of one topic as one batch each, in the given order', () => {
    const msgs = [
      busMessage({ key: 'a', eventId: 'evt_1' }),
      busMessage({ key: 'b', eventId: 'evt_2' }),
      busMessage({ topic: 'sales', key: 'c', eventId: 'evt_3' }),
      busMessage({ key: 'a', eventId: 'evt_4' }),
    ];
    const values = msgs.map((m) => Buffer.from(m.eventId));
    const batches = toTopicBatches('p-', msgs, values);
    expect(batches.map((b) => [b.topic, b.messages.map((m) => m.key)])).toEqual([
      ['p-organization', ['a', 'b']],
      ['p-sales', ['c']],
      ['p-organization', ['a']],
    ]);
    expect(batches[0].messages[1].value).toBe(values[1]);
    expect(batches[0].messages[1].headers).toMatchObject({ 'event-id': 'evt_2' });
  });

  it('splits sends under the size limit, in order, and gzips a message larger than it alone', () => {
    const m = (key: string, bytes: number) => ({ key, value: Buffer.alloc(bytes, 'x'), headers: { 'event-id': 'evt_1', 'event-type': 't' } });
    const a = [m('k', 400), m('k', 400), m('k', 400), m('k', 3000), m('k', 100)];
    const b = [m('j', 100)];
    const sends = toSizedSends([{ topic: 'p-a', messages: a }, { topic: 'p-b', messages: b }], 1000);
    expect(sends.map((s) => [s.topic, s.messages.length, s.compress])).toEqual([
      ['p-a', 2, false],
      ['p-a', 1, false],
      ['p-a', 1, true],
      ['p-a', 1, false],
      ['p-b', 1, false],
    ]);
    // nothing lost or reordered
    expect(sends.filter((s) => s.topic === 'p-a').flatMap((s) => s.messages)).toEqual(a);
  });

  it('maps a consumed record to a ConsumedMessage', () => {
    const payload = envelope();
    const m = fromKafkaMessage('test-x-', 'test-x-organization', 3, record('41', payload, { traceparent: Buffer.from('00-1'), multi: [Buffer.from('a'), 'b'] }), payload);
    expect(m).toEqual({
      topic: 'organization',
      key: 'rec_1',
      eventId: payload.id,
      type: 'location.updated',
      payload,
      headers: { traceparent: '00-1', multi: 'b' },
      position: '3:41',
    });
  });

  it('falls back to the envelope for a record without headers or key', () => {
    const payload = envelope();
    const raw = { ...record('7', payload, {}, null), headers: {} } as KafkaMessage;
    const m = fromKafkaMessage('', 'organization', 0, raw, payload);
    expect(m).toMatchObject({ key: '', eventId: payload.id, type: payload.type, headers: {}, position: '0:7' });
  });

  it('commits the offset after the handled one (as a string, beyond 2^53)', () => {
    expect(nextOffset('0')).toBe('1');
    expect(nextOffset('9007199254740993')).toBe('9007199254740994');
  });

  it('backs off like the postgres adapter, capped at 30 s', () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([200, 400, 800]);
    expect(retryDelayMs(50)).toBe(30_000);
  });
});

describe('topic regex for *', () => {
  it('matches the area topics under the prefix only', () => {
    const re = allTopicsPattern('test-ab12-');
    expect(re.test('test-ab12-organization')).toBe(true);
    expect(re.test('test-ab12-time_tracking')).toBe(true);
    expect(re.test('test-ab12-')).toBe(false);
    expect(re.test('test-cd34-organization')).toBe(false);
    expect(re.test('organization')).toBe(false);
    expect(re.test('test-ab12-sales-dlq')).toBe(false);
  });

  it('never matches internal topics or prefixed topics with an empty prefix', () => {
    const re = allTopicsPattern('');
    expect(re.test('sales')).toBe(true);
    expect(re.test('__consumer_offsets')).toBe(false);
    expect(re.test('_schemas')).toBe(false);
    expect(re.test('test-ab12-sales')).toBe(false);
  });

  it('escapes the prefix', () => {
    const re = allTopicsPattern('a.b+');
    expect(re.test('a.b+sales')).toBe(true);
    expect(re.test('axbbsales')).toBe(false);
    expect(re.source).toBe('^a\\.b\\+[a-z][a-z0-9_]*$');
  });
});

describe('eventJsonSchema', () => {
  it('is a draft-07 JSON Schema of the envelope', () => {
    const s = eventJsonSchema();
    expect(s.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(s.type).toBe('object');
    expect(s.required).toEqual(['id', 'type', 'createdAt', 'apiVersion', 'actor', 'locationId', 'data']);
    const props = s.properties as Record<string, Record<string, unknown>>;
    expect(props.apiVersion).toEqual({ type: 'string', const: 'v1' });
    expect(props.locationId).toEqual({ type: ['string', 'null'] });
    expect((props.data.required as string[])).toEqual(['object']);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    // copies: a caller's change does not leak into the next one
    s.type = 'array';
    expect(eventJsonSchema().type).toBe('object');
  });

  it('accepts real envelopes and refuses broken ones (with the registry client\'s validator)', () => {
    const schema = new JsonSchema({ type: SchemaType.JSON, schema: JSON.stringify(eventJsonSchema()) });
    // isValid answers true for invalid payloads unless given an errorHook (as toBuffer gives it)
    const validator = { isValid: (p: object) => schema.isValid(p, { errorHook: () => undefined }) };
    const created = envelope({ data: { object: { id: 'loc_1' } }, actor: { type: 'system', id: null }, locationId: null });
    for (const e of [envelope(), created]) {
      expect(EventEnvelope.safeParse(e).success).toBe(true);
      expect(validator.isValid(e)).toBe(true);
    }
    expect(validator.isValid(envelope({ apiVersion: 'v2' }))).toBe(false);
    expect(validator.isValid(envelope({ actor: { type: 'robot', id: null } }))).toBe(false);
    const { id: _id, ...noId } = envelope();
    expect(validator.isValid(noId)).toBe(false);
    expect(validator.isValid(envelope({ data: { previous: {} } }))).toBe(false);
    expect(validator.isValid(envelope({ extra: 1 }))).toBe(false);
  });
});

describe('payload codec', () => {
  it('without a registry: JSON, and reads the registry wire format too', async () => {
    const codec = createPayloadCodec();
    const payload = envelope();
    const value = await codec.encode('organization', payload);
    expect(JSON.parse(value.toString())).toEqual(payload);
    await expect(codec.decode(value)).resolves.toEqual(payload);
    const wire = Buffer.concat([Buffer.from([0, 0, 0, 0, 7]), Buffer.from(JSON.stringify(payload))]);
    await expect(codec.decode(wire)).resolves.toEqual(payload);
    await expect(codec.decode(null)).rejects.toThrow('empty');
    await expect(codec.decode(Buffer.from('[1]'))).rejects.toThrow('not a JSON object');
    // parsed from a text (the relay's outbox rows): that text as it is; an object made otherwise: JSON.stringify's
    const text = JSON.stringify(payload, null, 2);
    expect((await codec.encode('organization', parsePayload(text))).toString()).toBe(text);
    expect((await codec.encode('organization', JSON.parse(text))).toString()).toBe(JSON.stringify(payload));
  });

  describe('with a schema registry (a fake one speaking the Confluent REST API)', () => {
    const schemas: { subject: string; schema: string; schemaType: string }[] = [];
    const calls: string[] = [];
    const configs: [string, unknown][] = [];
    let server: http.Server;
    let url: string;

    beforeAll(async () => {
      server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          calls.push(`${req.method} ${req.url}`);
          const send = (status: number, data: unknown) => {
            res.writeHead(status, { 'content-type': 'application/vnd.schemaregistry.v1+json' });
            res.end(JSON.stringify(data));
          };
          const url = decodeURIComponent(req.url ?? '');
          let m: RegExpMatchArray | null;
          if (req.method === 'GET' && url.startsWith('/config/')) return send(404, { error_code: 40408, message: 'Subject does not have subject-level compatibility configured' });
          if (req.method === 'PUT' && url.startsWith('/config/')) {
            configs.push([url.slice('/config/'.length), JSON.parse(body)]);
            return send(200, JSON.parse(body));
          }
          if (req.method === 'POST' && (m = url.match(/^\/subjects\/(.+)\/versions$/))) {
            const { schema, schemaType } = JSON.parse(body);
            schemas.push({ subject: m[1], schema, schemaType });
            return send(200, { id: schemas.length });
          }
          if (req.method === 'GET' && (m = url.match(/^\/schemas\/ids\/(\d+)$/))) {
            const s = schemas[Number(m[1]) - 1];
            return s ? send(200, { schema: s.schema, schemaType: s.schemaType }) : send(404, { error_code: 40403, message: 'Schema not found' });
          }
          send(404, { error_code: 404, message: 'not found' });
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    // a location event as organization records it: data.object the full resource
    const location = {
      id: 'loc_01JD0000000000000000000001', name: 'Harbour St', externalId: null, timezone: 'Europe/Berlin', businessDayCutoff: '04:00', orgUnitId: null,
      address: null, status: 'active', version: 2, createdAt: '2026-11-21T09:00:00.000Z', updatedAt: '2026-11-21T09:30:00.000Z', archivedAt: null,
    };
    const locationEvent = (overrides: Record<string, unknown> = {}) => envelope({ data: { object: location, previous: { name: 'Harbor St' } }, ...overrides });

    it('registers each event type\'s schema once per topic (subject <topic>-<type>, BACKWARD) and round-trips through the wire format', async () => {
      const producer = createPayloadCodec(new SchemaRegistry({ host: url, clientId: 'test' }));
      const payload = locationEvent();
      const a = await producer.encode('p-organization', payload);
      await producer.encode('p-organization', locationEvent({ id: 'evt_2' }));
      const created = await producer.encode('p-organization', locationEvent({ type: 'location.created', data: { object: location } }));
      const b = await producer.encode('p-sales', envelope({ type: 'sales.transactions.recorded', data: { object: { transactions: [] } } }));
      expect(schemas.map((s) => [s.subject, s.schemaType])).toEqual([
        ['p-organization-location.updated', 'JSON'],
        ['p-organization-location.created', 'JSON'],
        ['p-sales-sales.transactions.recorded', 'JSON'],
      ]);
      expect(JSON.parse(schemas[0].schema)).toEqual(eventTypeJsonSchema('location.updated'));
      // an internal type: the generic envelope
      expect(JSON.parse(schemas[2].schema)).toEqual(eventJsonSchema());
      expect(calls.filter((c) => c.startsWith('POST'))).toHaveLength(3);
      // each subject set to BACKWARD when first registered
      expect(configs).toEqual([
        ['p-organization-location.updated', { compatibility: 'BACKWARD' }],
        ['p-organization-location.created', { compatibility: 'BACKWARD' }],
        ['p-sales-sales.transactions.recorded', { compatibility: 'BACKWARD' }],
      ]);
      expect(a[0]).toBe(0);
      expect(a.readInt32BE(1)).toBe(1);
      expect(created.readInt32BE(1)).toBe(2);
      expect(b.readInt32BE(1)).toBe(3);
      expect(JSON.parse(a.subarray(5).toString())).toEqual(payload);
      // a payload the relay parsed from the outbox's text goes out as that text, validated all the same
      const stored = JSON.stringify(locationEvent({ id: 'evt_3' }), null, 1);
      const fromText = await producer.encode('p-organization', parsePayload(stored));
      expect(fromText.readInt32BE(1)).toBe(1);
      expect(fromText.subarray(5).toString()).toBe(stored);

      // a consumer with its own registry client fetches the writer's schema by id
      const consumer = createPayloadCodec(new SchemaRegistry({ host: url, clientId: 'test' }));
      await expect(consumer.decode(a)).resolves.toEqual(payload);
      expect(calls).toContain('GET /schemas/ids/1');
      // and a consumer without one still reads it; a plain JSON value too
      await expect(createPayloadCodec().decode(b)).resolves.toMatchObject({ type: 'sales.transactions.recorded' });
      await expect(consumer.decode(Buffer.from(JSON.stringify(payload)))).resolves.toEqual(payload);
    });

    it('writes an event its type\'s schema does not describe as plain JSON, and reports it', async () => {
      const reports: Array<{ type: string; error: string }> = [];
      const codec = createPayloadCodec(new SchemaRegistry({ host: url, clientId: 'test' }), undefined, (r) => reports.push(r));
      const { name: _name, ...nameless } = location;
      for (const event of [locationEvent({ data: { object: nameless } }), locationEvent({ data: { object: { ...location, status: 'closed' } } })]) {
        const value = await codec.encode('p-organization', event);
        expect(value[0]).not.toBe(0); // not the registry's wire format
        expect(JSON.parse(value.toString('utf8'))).toEqual(event);
        await expect(codec.decode(value)).resolves.toEqual(event);
      }
      expect(reports.map((r) => r.type)).toEqual(['location.updated', 'location.updated']);
      expect(reports[0].error).toMatch(/invalid payload/);
    });

    it('refuses a payload without a type, and writes one that is no envelope as plain JSON, reported', async () => {
      const reports: Array<{ type: string }> = [];
      const codec = createPayloadCodec(new SchemaRegistry({ host: url, clientId: 'test' }), undefined, (r) => reports.push(r));
      await expect(codec.encode('p-organization', { hello: 'world' })).rejects.toThrow(/no type/);
      const value = await codec.encode('p-organization', { type: 'p.internal.happened', hello: 'world' });
      expect(JSON.parse(value.toString('utf8'))).toEqual({ type: 'p.internal.happened', hello: 'world' });
      expect(reports.map((r) => r.type)).toEqual(['p.internal.happened']);
    });
  });
});

describe('processBatch (eachBatch without auto-resolve or auto-commit)', () => {
  function payloadOf(messages: KafkaMessage[], opts: { stale?: () => boolean } = {}) {
    const log: string[] = [];
    const payload = {
      batch: { topic: 't-sales', partition: 2, highWatermark: '100', messages },
      resolveOffset: (o: string) => log.push(`resolve ${o}`),
      commitOffsetsIfNecessary: async (offsets?: { topics: { topic: string; partitions: { partition: number; offset: string }[] }[] }) => {
        const t = offsets!.topics[0];
        log.push(`commit ${t.topic}/${t.partitions[0].partition}@${t.partitions[0].offset}`);
      },
      heartbeat: async () => void log.push('heartbeat'),
      isRunning: () => true,
      isStale: opts.stale ?? (() => false),
      pause: () => () => undefined,
      uncommittedOffsets: () => ({ topics: [] }),
    } as unknown as EachBatchPayload;
    return { payload, log };
  }

  function runOf(log: string[], handler: (b: ConsumedMessage[]) => Promise<void>, batchSize = 2): BatchRun {
    return {
      prefix: 't-',
      batchSize,
      decode: (v) => createPayloadCodec().decode(v),
      handler: async (b) => {
        log.push(`handle ${b.map((m) => m.position).join(',')}`);
        await handler(b);
      },
      stopped: () => false,
      failed: (offset, err) => log.push(`failed from ${offset}: ${(err as Error).message}`),
      succeeded: () => log.push('ok'),
    };
  }

  const messages = ['10', '11', '12', '13', '14'].map((o) => record(o, envelope({ id: `evt_${o}` })));

  it('hands chunks of batchSize in order and commits each only after its handler resolved', async () => {
    const { payload, log } = payloadOf(messages);
    const seen: ConsumedMessage[] = [];
    await expect(processBatch(runOf(log, async (b) => void seen.push(...b)), payload)).resolves.toBe('done');
    expect(log).toEqual([
      'handle 2:10,2:11', 'resolve 11', 'commit t-sales/2@12', 'ok', 'heartbeat',
      'handle 2:12,2:13', 'resolve 13', 'commit t-sales/2@14', 'ok', 'heartbeat',
      'handle 2:14', 'resolve 14', 'commit t-sales/2@15', 'ok', 'heartbeat',
    ]);
    expect(seen.map((m) => [m.topic, m.eventId])).toEqual(['10', '11', '12', '13', '14'].map((o) => ['sales', `evt_${o}`]));
  });

  it('on a failing handler commits nothing more and redelivers from the chunk\'s first offset', async () => {
    const { payload, log } = payloadOf(messages);
    let calls = 0;
    const result = await processBatch(runOf(log, async () => {
      if (++calls === 2) throw new Error('tx rolled back');
    }), payload);
    expect(result).toBe('failed');
    expect(log).toEqual([
      'handle 2:10,2:11', 'resolve 11', 'commit t-sales/2@12', 'ok', 'heartbeat',
      'handle 2:12,2:13', 'failed from 12: tx rolled back',
    ]);
  });

  it('hands on a record that can never be decoded marked undecodable (its bytes as text), so the partition moves on', async () => {
    const bad = { ...record('20', envelope()), value: Buffer.from('{nope\u0000') } as KafkaMessage;
    const { payload, log } = payloadOf([bad, messages[0]]);
    const seen: ConsumedMessage[] = [];
    await expect(processBatch(runOf(log, async (b) => void seen.push(...b)), payload)).resolves.toBe('done');
    expect(log).toEqual(['handle 2:20,2:10', 'resolve 10', 'commit t-sales/2@11', 'ok', 'heartbeat']);
    expect(seen[0]).toMatchObject({ position: '2:20', payload: { value: '{nope\u0000' }, undecodable: expect.stringMatching(/^SyntaxError: /) });
    expect(seen[1].undecodable).toBeUndefined();
  });

  it('treats a decoding failure that may pass (the registry unreachable) like a failed handler', async () => {
    const { payload, log } = payloadOf([messages[0]]);
    const run = { ...runOf(log, async () => undefined), decode: async () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8081'), { code: 'ECONNREFUSED' })) };
    await expect(processBatch(run, payload)).resolves.toBe('failed');
    expect(log).toEqual(['failed from 10: connect ECONNREFUSED 127.0.0.1:8081']);
  });

  it('stops between chunks when a seek made the batch stale', async () => {
    let stale = false;
    const { payload, log } = payloadOf(messages, { stale: () => stale });
    const result = await processBatch(runOf(log, async () => void (stale = true)), payload);
    expect(result).toBe('interrupted');
    expect(log.filter((l) => l.startsWith('handle'))).toEqual(['handle 2:10,2:11']);
  });
});

describe('the producer\'s partitioner', () => {
  // kafkajs's own murmur2 (64-bit Long arithmetic, no types published): the reference for ours
  const kafkajsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2') as (key: string | Buffer) => number;
  // keys as the relay sends them (record ids, a stock level's `<item>:<location>`), and any others
  const keys = ['', 'a', 'ab', 'abc', 'abcd', 'loc_01JD0000000000000000000001', 'itm_01JD00000000000000000000AB:loc_01JD0000000000000000000001', 'Zürich', '東京-store', '🙂x', '\u0000\u007f\u0080'];
  for (let i = 0; i < 500; i++) keys.push(Array.from({ length: i % 41 }, (_, j) => String.fromCharCode(32 + ((i * 31 + j * 7) % 95))).join(''));
  for (let i = 0; i < 50; i++) keys.push(Array.from({ length: i % 9 }, (_, j) => String.fromCodePoint(0x80 + ((i * 131 + j * 977) % 0x10000 === 0xd800 ? 1 : (i * 131 + j * 977) % 0xd000))).join(''));

  it('hashes every key as kafkajs\'s murmur2 does (Java\'s Utils.murmur2), from a string or its bytes', () => {
    for (const key of keys) {
      expect([key, murmur2(key)]).toEqual([key, kafkajsMurmur2(key)]);
      expect(murmur2(Buffer.from(key))).toBe(kafkajsMurmur2(Buffer.from(key)));
    }
  });

  it('puts every key on the partition kafkajs\'s DefaultPartitioner does, so a key keeps its partition', () => {
    const ours = KeyHashPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    for (const count of [1, 2, 3, 6, 7, 12, 64]) {
      const partitionMetadata = Array.from({ length: count }, (_, p) => ({ partitionId: p, leader: 0 }) as PartitionMetadata);
      for (const key of keys) {
        const args = { topic: 'sales', partitionMetadata, message: { key, value: 'v' } };
        expect([key, count, ours(args)]).toEqual([key, count, theirs(args)]);
      }
      // an explicit partition is kept
      expect(ours({ topic: 'sales', partitionMetadata, message: { key: 'k', value: 'v', partition: 0 } })).toBe(0);
    }
  });
});

describe('Gather (a subscription\'s partitions in one handler call and one commit)', () => {
  it('runs what was handed in during one turn as one call, in order, at most `limit` by weight', async () => {
    const runs: number[][] = [];
    const gather = new Gather<number[]>(async (items) => void runs.push(items.flat()), 5);
    const done = [gather.submit([1, 2], 2), gather.submit([3], 1), gather.submit([4, 5, 6], 3), gather.submit([7], 1)];
    await Promise.all(done);
    expect(runs).toEqual([[1, 2, 3], [4, 5, 6, 7]]);
    // an item heavier than the limit still runs, alone
    await gather.submit([8, 9, 10, 11, 12, 13], 6);
    expect(runs[2]).toEqual([8, 9, 10, 11, 12, 13]);
  });

  it('fails every item of a failed run (each redelivered) and runs the next ones afresh', async () => {
    let calls = 0;
    const gather = new Gather<string>(async (items) => {
      calls += 1;
      if (items.includes('bad')) throw new Error('tx rolled back');
    });
    const a = gather.submit('a');
    const bad = gather.submit('bad');
    await expect(a).rejects.toThrow('tx rolled back');
    await expect(bad).rejects.toThrow('tx rolled back');
    await expect(gather.submit('c')).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });

  it('commits the offsets of a gathered run in one request, by topic, a partition at its later offset', async () => {
    const requests: unknown[] = [];
    const commitOffsets = async (offsets?: unknown) => void requests.push(offsets);
    await commitGathered([
      { offset: { topic: 't-sales', partition: 0, offset: '12' }, commitOffsets },
      { offset: { topic: 't-cash', partition: 3, offset: '7' }, commitOffsets },
      { offset: { topic: 't-sales', partition: 2, offset: '5' }, commitOffsets },
      { offset: { topic: 't-sales', partition: 0, offset: '15' }, commitOffsets },
    ]);
    expect(requests).toEqual([
      { topics: [{ topic: 't-sales', partitions: [{ partition: 0, offset: '15' }, { partition: 2, offset: '5' }] }, { topic: 't-cash', partitions: [{ partition: 3, offset: '7' }] }] },
    ]);
  });

  it('gathers items handed in while a run is under way into the next run', async () => {
    const runs: string[][] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const gather = new Gather<string>(async (items) => {
      runs.push(items);
      if (runs.length === 1) await held;
    });
    const first = gather.submit('a');
    await new Promise((r) => setImmediate(r));
    const later = [gather.submit('b'), gather.submit('c')];
    release();
    await Promise.all([first, ...later]);
    expect(runs).toEqual([['a'], ['b', 'c']]);
  });
});

describe('logging', () => {
  it('maps pino levels to kafkajs levels', () => {
    expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'].map(kafkaLogLevel)).toEqual([
      logLevel.DEBUG, logLevel.DEBUG, logLevel.INFO, logLevel.WARN, logLevel.ERROR, logLevel.ERROR, logLevel.NOTHING,
    ]);
  });

  it('writes kafkajs entries to pino at the matching level', () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(JSON.parse(chunk.toString()));
        cb();
      },
    });
    const log = pino({ level: 'debug' }, sink);
    const write = pinoLogCreator(log)();
    const entry = (level: logLevel, message: string) => ({ namespace: 'Consumer', level, label: 'X', log: { timestamp: 't', logger: 'kafkajs', message, groupId: 'g' } });
    write(entry(logLevel.ERROR, 'boom'));
    write(entry(logLevel.WARN, 'careful'));
    write(entry(logLevel.INFO, 'joined'));
    write(entry(logLevel.DEBUG, 'fetch'));
    expect(lines.map((l) => [l.level, l.msg, l.kafkajs, l.groupId])).toEqual([
      [50, 'boom', 'Consumer', 'g'],
      [40, 'careful', 'Consumer', 'g'],
      [30, 'joined', 'Consumer', 'g'],
      [20, 'fetch', 'Consumer', 'g'],
    ]);
    expect(lines[0]).not.toHaveProperty('timestamp');
  });
});

describe('kafkaBusFactoryFromEnv', () => {
  it('is null without KAFKA_BROKERS and a factory with it', () => {
    const log = pino({ level: 'silent' });
    expect(kafkaBusFactoryFromEnv(log, {})).toBeNull();
    expect(kafkaBusFactoryFromEnv(log, { KAFKA_BROKERS: ' ' })).toBeNull();
    expect(typeof kafkaBusFactoryFromEnv(log, { KAFKA_BROKERS: 'localhost:29092,localhost:29093' })).toBe('function');
  });
});
