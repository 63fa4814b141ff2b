/**
 * `npm run kafka:local`'s command: prints one line with both addresses once the broker and the
 * registry answer, keeps them up, and on SIGTERM (or SIGINT) stops both and exits 0.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { eventually } from '@bop/test-support';

jest.setTimeout(180_000);

const cli = path.resolve(__dirname, '../deploy/kafka-local/kafka-local.cjs');

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

describe.each(['SIGTERM', 'SIGINT'] as const)('kafka:local stopped with %s', (signal) => {
  it('prints KAFKA_BROKERS=… SCHEMA_REGISTRY_URL=…, serves both, then stops both cleanly', async () => {
    const child = spawn(process.execPath, [cli], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const line = await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`kafka:local exited (${child.exitCode}): ${err}`);
      return /^KAFKA_BROKERS=\S+ SCHEMA_REGISTRY_URL=\S+\n/.exec(out)?.[0];
    }, 150_000, 200);
    const m = /^KAFKA_BROKERS=127\.0\.0\.1:(\d+) SCHEMA_REGISTRY_URL=(http:\/\/127\.0\.0\.1:(\d+)\/apis\/ccompat\/v7)\n$/.exec(line);
    expect(m).not.toBeNull();
    const [brokerPort, registryUrl, registryPort] = [Number(m![1]), m![2], Number(m![3])];
    expect(await answers(brokerPort)).toBe(true);
    expect((await fetch(`${registryUrl}/subjects`)).status).toBe(200);

    child.kill(signal);
    expect(await exited).toBe(0);
    expect(err).toContain('stopped');
    expect(await answers(brokerPort)).toBe(false);
    expect(await answers(registryPort)).toBe(false);
  });
});
