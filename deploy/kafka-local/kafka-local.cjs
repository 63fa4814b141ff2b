// A local Apache Kafka (KRaft, broker and controller in one process) and an Apicurio Registry (its
// Confluent-compatible API) on free loopback ports, from the artifacts pom.xml beside this file fetches
// from Maven Central. Used by `npm run kafka:local` (the CLI below), by the test run's global setup
// and by the tests that restart the broker. Plain CommonJS, so that none of them needs a build.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const here = __dirname;
const target = path.join(here, 'target');
const stamp = path.join(target, '.artifacts-of');

/** Where `java` is: JAVA_HOME's, else the PATH's; null when neither has one. */
function javaBin() {
  const fromHome = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : null;
  if (fromHome && fs.existsSync(fromHome)) return fromHome;
  return onPath('java');
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

function pomDigest() {
  const h = createHash('sha256');
  h.update(fs.readFileSync(path.join(here, 'pom.xml')));
  h.update(fs.readFileSync(path.join(here, 'apicurio-parent', 'pom.xml')));
  return h.digest('hex');
}

/**
 * Fetches the broker's jars and the registry's runnable layout into target/ (Maven's local cache makes
 * a second fetch fast; an unchanged pom.xml skips Maven altogether). Throws naming what is missing.
 */
function ensureArtifacts(log = () => {}) {
  const java = javaBin();
  const missing = [];
  if (!java) missing.push('java (a JDK or JRE 17 or newer: set JAVA_HOME, or `apt-get install openjdk-17-jre-headless`)');
  const digest = pomDigest();
  const fetched = fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === digest;
  const mvn = onPath('mvn');
  if (!fetched && !mvn) missing.push('mvn (Maven 3.8 or newer, to fetch Kafka and the registry from Maven Central: `apt-get install maven`)');
  if (missing.length) throw new Error(`kafka:local: cannot start: missing ${missing.join('; and ')}`);
  if (!fetched) {
    log('fetching Apache Kafka and Apicurio Registry with Maven (the first time takes a minute)…');
    // copy-dependencies adds to what is there: another version's jars would share the class path
    for (const d of ['kafka', 'registry']) fs.rmSync(path.join(target, d), { recursive: true, force: true });
    const r = spawnSync(mvn, ['-B', '-q', '-f', path.join(here, 'pom.xml'), 'package'], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`kafka:local: Maven failed (exit ${r.status}):\n${(r.stdout + r.stderr).trim().split('\n').slice(-20).join('\n')}`);
    fs.writeFileSync(stamp, digest);
  }
  const registryJar = fs.readdirSync(path.join(target, 'registry')).find((f) => f.endsWith('-runner.jar'));
  if (!registryJar) throw new Error('kafka:local: the registry layout has no *-runner.jar (delete deploy/kafka-local/target and start again)');
  return { java, kafkaClasspath: path.join(target, 'kafka', 'libs', '*'), registryJar: path.join(target, 'registry', registryJar) };
}

/**
 * A port free right now on loopback, below the kernel's ephemeral range when it can tell: a broker
 * stopped and started again on it (the fault tests) must not find it taken by an outgoing connection
 * in between (shared/src/http-server.ts freePort does the same for the services' kit).
 */
async function freePort() {
  let low = null;
  try {
    low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    // not Linux: any free port
  }
  for (let i = 0; Number.isInteger(low) && low > 12000 && i < 50; i++) {
    const port = 10000 + Math.floor(Math.random() * (low - 10000));
    if ((await listenOnce(port).catch(() => null)) !== null) return port;
  }
  return listenOnce(0);
}

function listenOnce(port) {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => {
      const bound = srv.address().port;
      srv.close(() => resolve(bound));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `probe` answers true; rejects after `ms`, or at once when the process has exited. */
async function waitFor(what, probe, child, logFile, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before it answered; its log: ${logFile}\n${tail(logFile)}`);
    }
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer within ${ms / 1000} s; its log: ${logFile}\n${tail(logFile)}`);
    await sleep(250);
  }
}

function tail(file, lines = 15) {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * A Kafka ApiVersions request (v0) on the broker port, answered: the broker's listener is up and
 * its request handlers run.
 */
function brokerAnswers(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const clientId = Buffer.from('kafka-local');
    // size, api_key 18, api_version 0, correlation_id 1, client_id
    const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length);
    body.writeInt16BE(18, 0);
    body.writeInt16BE(0, 2);
    body.writeInt32BE(1, 4);
    body.writeInt16BE(clientId.length, 8);
    clientId.copy(body, 10);
    const size = Buffer.alloc(4);
    size.writeInt32BE(body.length, 0);
    let got = Buffer.alloc(0);
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write(Buffer.concat([size, body])));
    socket.on('data', (d) => {
      got = Buffer.concat([got, d]);
      // size, correlation id 1, error code 0
      if (got.length >= 10) done(got.readInt32BE(4) === 1 && got.readInt16BE(8) === 0);
    });
  });
}

async function registryAnswers(url) {
  const res = await fetch(`${url}/subjects`, { signal: AbortSignal.timeout(2000) });
  return res.ok;
}

function stopChild(child, graceMs) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts a broker and (unless `registry: false`) the registry. Answers their addresses and controls:
 * `stop()` stops both and removes the data directory (unless `dir` was given), `stopBroker(signal)`
 * and `startBroker()` restart the broker on the same ports and log directory (tests of a broker
 * restart), `pid()` the broker's process id.
 */
async function startKafkaLocal(options = {}) {
  const log = options.log ?? (() => {});
  const { java, kafkaClasspath, registryJar } = ensureArtifacts(log);
  const keepDir = Boolean(options.dir);
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bop-kafka-'));
  fs.mkdirSync(dir, { recursive: true });
  const [brokerPort, controllerPort, registryPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = path.join(dir, 'kraft');
  const props = path.join(dir, 'server.properties');
  fs.writeFileSync(
    props,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.bootstrap.servers=127.0.0.1:${controllerPort}`,
      `listeners=PLAINTEXT://127.0.0.1:${brokerPort},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${brokerPort}`,
      'controller.listener.names=CONTROLLER',
      'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      'inter.broker.listener.name=PLAINTEXT',
      `log.dirs=${dataDir}`,
      `num.partitions=${options.partitions ?? 3}`,
      'default.replication.factor=1',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=10',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'share.coordinator.state.topic.replication.factor=1',
      'share.coordinator.state.topic.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      // a single-node cluster for tests and local work: segments small, nothing kept for long
      'log.retention.hours=24',
      '',
    ].join('\n'),
  );
  // as Kafka's own kafka-server-start.sh / kafka-run-class.sh run a broker: the heap fixed (-Xms = -Xmx;
  // started at 128 MB, G1 ran concurrent cycles as it grew: ~6 µs of broker CPU an event in bench:bus)
  // and its G1 settings; the heap is reserved, not touched, until used
  const heap = options.brokerHeap ?? '768m';
  const jvm = [`-Xms${heap}`, `-Xmx${heap}`, '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:InitiatingHeapOccupancyPercent=35', '-XX:+ExplicitGCInvokesConcurrent', '-XX:MaxInlineLevel=15', '-Djava.awt.headless=true'];
  const format = spawnSync(
    java,
    [...jvm, '-cp', kafkaClasspath, 'kafka.tools.StorageTool', 'format', '--standalone', '-t', clusterId(), '-c', props, '--ignore-formatted'],
    { encoding: 'utf8' },
  );
  if (format.status !== 0) {
    if (!keepDir) fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`kafka:local: formatting the KRaft log directory failed:\n${format.stdout}${format.stderr}`);
  }

  let broker = null;
  const brokerLog = path.join(dir, 'broker.log');
  const startBroker = async () => {
    const out = fs.openSync(brokerLog, 'a');
    broker = spawn(java, [...jvm, '-cp', kafkaClasspath, 'kafka.Kafka', props], { stdio: ['ignore', out, out] });
    fs.closeSync(out);
    broker.unref();
    await waitFor('the Kafka broker', () => brokerAnswers(brokerPort), broker, brokerLog, options.timeoutMs ?? 90_000);
  };
  const stopBroker = (signal = 'SIGTERM') => {
    const child = broker;
    if (signal === 'SIGKILL' && child && child.exitCode === null) {
      return new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    }
    return stopChild(child, 30_000);
  };

  let registry = null;
  const registryLog = path.join(dir, 'registry.log');
  const registryUrl = `http://127.0.0.1:${registryPort}/apis/ccompat/v7`;
  const startRegistry = async () => {
    const out = fs.openSync(registryLog, 'a');
    registry = spawn(
      java,
      [
        '-Xms64m',
        `-Xmx${options.registryHeap ?? '384m'}`,
        `-Dquarkus.http.port=${registryPort}`,
        '-Dquarkus.http.host=127.0.0.1',
        '-Dquarkus.log.level=WARN',
        // the registry's own H2 database in memory: schemas live as long as the registry
        '-Dapicurio.storage.kind=sql',
        '-Dapicurio.storage.sql.kind=h2',
        '-jar',
        registryJar,
      ],
      { stdio: ['ignore', out, out], cwd: dir },
    );
    fs.closeSync(out);
    registry.unref();
    await waitFor('the schema registry', () => registryAnswers(registryUrl), registry, registryLog, options.timeoutMs ?? 90_000);
  };

  const stop = async () => {
    await Promise.all([stopChild(registry, 15_000), stopBroker('SIGTERM')]);
    if (!keepDir) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all([startBroker(), options.registry === false ? Promise.resolve() : startRegistry()]);
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
  return {
    brokers: `127.0.0.1:${brokerPort}`,
    registryUrl: options.registry === false ? undefined : registryUrl,
    dir,
    brokerLog,
    registryLog,
    pid: () => broker?.pid,
    stopBroker,
    startBroker,
    stop,
  };
}

/**
 * A KRaft cluster id: 16 random bytes, base64url without padding (what `kafka-storage random-uuid`
 * prints), never starting with '-': the storage tool would read such an id as an option and refuse
 * to format (1 run in 64 failed so; Kafka's own Uuid.randomUuid draws again for the same reason).
 */
function clusterId() {
  for (;;) {
    const b = new Uint8Array(16);
    globalThis.crypto.getRandomValues(b);
    const id = Buffer.from(b).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

module.exports = { startKafkaLocal, ensureArtifacts, freePort, clusterId };

// `node deploy/kafka-local/kafka-local.cjs` (npm run kafka:local): start, print the line, stay up until a signal.
async function main() {
  const say = (m) => process.stderr.write(`kafka:local: ${m}\n`);
  let kafka;
  try {
    kafka = await startKafkaLocal({ log: say });
  } catch (err) {
    say(err.message.replace(/^kafka:local: /, ''));
    process.exit(1);
  }
  process.stdout.write(`KAFKA_BROKERS=${kafka.brokers} SCHEMA_REGISTRY_URL=${kafka.registryUrl}\n`);
  say(`broker log ${kafka.brokerLog}, registry log ${kafka.registryLog}; Ctrl-C stops both`);
  let stopping = false;
  const shutdown = async (signal) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping the registry and the broker…`);
    await kafka.stop();
    say('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // stay up
  setInterval(() => {}, 1 << 30);
}

if (require.main === module) void main();
