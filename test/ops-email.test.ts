/**
 * Outgoing email through a real local SMTP receiver (smtp-server): `ops email test|log` as real
 * processes, and an invitation sent by identity's email worker after its transaction.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { fixedClock } from '@bop/shared';
import { freshDatabase, startTestService, system, type TestDatabase, type TestService } from '@bop/test-support';
import { identityService } from '@svc/identity';
import { runOps } from './ops-cli';


interface Received {
  from: string;
  to: string[];
  data: string;
}
const received: Received[] = [];
let server: SMTPServer;
let flakyRefused = false;
let smtpUrl: string;

async function startReceiver(): Promise<void> {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address === 'flaky@example.com' && !flakyRefused) {
        flakyRefused = true;
        return callback(Object.assign(new Error('4.3.2 try again later'), { responseCode: 421 }));
      }
      if (address.address.endsWith('@refused.example')) {
        const err = Object.assign(new Error('5.1.1 mailbox unknown'), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
}

let db: TestDatabase;

const ops = (args: string[], env: Record<string, string> = {}) => runOps(args, { ...process.env, DATABASE_URL: db.url, PORT: '1', LOG_LEVEL: 'silent', SMTP_URL: smtpUrl, SMTP_FROM: 'Ops <ops@example.com>', ...env });

beforeAll(async () => {
  await startReceiver();
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

describe('ops email', () => {
  it('sends a test message through SMTP and lists it as sent', async () => {
    const r = await ops(['email', 'test', 'someone@example.com']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/test message to someone@example.com accepted by 127\.0\.0\.1:\d+/);
    const mail = received.find((m) => m.to.includes('someone@example.com'))!;
    expect(mail.from).toBe('ops@example.com');
    expect(mail.data).toContain('Subject: BOP test message');
    const log = await ops(['email', 'log']);
    expect(log.code).toBe(0);
    expect(log.out).toMatch(/sent\s+attempts 1\s+someone@example.com\s+BOP test message/);
  });

  it('exits 1 with the SMTP error when the server refuses or cannot be reached, and logs the failure', async () => {
    const refused = await ops(['email', 'test', 'nobody@refused.example']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/sending to nobody@refused.example through 127\.0\.0\.1:\d+ failed: 550 5\.1\.1 mailbox unknown/);
    const down = await ops(['email', 'test', 'x@example.com'], { SMTP_URL: 'smtp://127.0.0.1:1' });
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/failed: .*ECONNREFUSED/);
    const log = JSON.parse((await ops(['email', 'log', '--json', '--limit', '2'])).out) as { to: string; status: string; error: string }[];
    expect(log.map((m) => [m.to, m.status])).toEqual([
      ['x@example.com', 'failed'],
      ['nobody@refused.example', 'failed'],
    ]);
    expect(log[1].error).toContain('550');
  });

  it('keeps the message in the email log when SMTP_URL is unset', async () => {
    const r = await ops(['email', 'test', 'kept@example.com'], { SMTP_URL: '' });
    expect(r.code).toBe(0);
    expect(r.out).toContain('written to the email log (SMTP_URL is not set)');
    expect((await ops(['email', 'log', '--to', 'kept@example.com'])).out).toMatch(/logged\s+attempts 1\s+kept@example.com/);
    expect((await ops(['email', 'log', '--limit', 'many'])).code).toBe(2);
    expect((await ops(['email', 'test'])).code).toBe(2);
  });
});

describe('invitation email', () => {
  let t: TestService;
  // the email worker's rounds are run here, on a clock moved by hand (no waiting for its loop or its backoff)
  const clock = fixedClock(new Date());
  const emailRound = () => t.svc.worker('email').runOnce();
  const logOf = async (to: string) => (await t.call('GET', `/internal/email-log?to=${to}`, { as: system })).body.data[0];
  afterAll(() => t?.close());

  it('goes out through SMTP after the invitation is committed, and the log says sent', async () => {
    t = await startTestService(identityService, { BOOTSTRAP_ADMIN_PASSWORD: 'owner-password-123', SMTP_URL: smtpUrl, SMTP_FROM: 'Shop <hello@shop.example>' }, { workers: false, clock });
    const r = await t.call('POST', '/invitations', { body: { email: 'Invited@Example.com', name: 'Ina', assignments: [] } });
    expect(r.status).toBe(201);
    expect(await logOf('invited@example.com')).toMatchObject({ status: 'pending', attempts: 0 });
    await emailRound();
    const mail = received.find((m) => m.to.includes('invited@example.com'))!;
    expect(mail.from).toBe('hello@shop.example');
    expect(mail.data).toMatch(/Your invitation token: inv_\S+/);
    expect(await logOf('invited@example.com')).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('is tried again after a temporary refusal (the reason kept meanwhile), then sent', async () => {
    expect((await t.call('POST', '/invitations', { body: { email: 'flaky@example.com', assignments: [] } })).status).toBe(201);
    await emailRound();
    expect(await logOf('flaky@example.com')).toMatchObject({ status: 'pending', attempts: 1, error: expect.stringContaining('421 4.3.2 try again later') });
    // not yet due (the first retry waits 4 to 5 s): a round leaves it alone
    await emailRound();
    expect(await logOf('flaky@example.com')).toMatchObject({ status: 'pending', attempts: 1 });
    clock.advance(10_000);
    await emailRound();
    expect(await logOf('flaky@example.com')).toMatchObject({ status: 'sent', attempts: 2, error: null });
    expect(received.filter((m) => m.to.includes('flaky@example.com'))).toHaveLength(1);
  });
});
