// `npm run kafka:local` on a machine without Java: it says exactly what is missing and exits 1.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const cli = path.resolve(__dirname, '../deploy/kafka-local/kafka-local.cjs');

describe('kafka:local without java', () => {
  it('names what is missing and exits 1', () => {
    const env: Record<string, string> = { PATH: '/nonexistent' };
    const r = spawnSync(process.execPath, [cli], { env, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^kafka:local: cannot start: missing java \(a JDK or JRE 17 or newer/m);
  });
});

describe('kafka:local cluster ids', () => {
  it('never start with "-" (the storage tool would read the id as an option and refuse to format)', () => {
    const { clusterId } = require(cli) as { clusterId: () => string };
    const ids = Array.from({ length: 5000 }, () => clusterId());
    expect(ids.filter((id) => id.startsWith('-'))).toEqual([]);
    expect(ids.every((id) => /^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/.test(id))).toBe(true);
  });
});
