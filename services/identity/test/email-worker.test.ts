import { fixedClock } from '@bop/shared';
import { startTestService, system, type TestService } from '@bop/test-support';
import { identityService, ownerEnv } from './fixtures';
import { sendEmail } from '../src/email/store';

let t: TestService;
beforeAll(async () => {
  // no SMTP_URL: emails stay in the log; the worker's rounds are run here, not by its loop
  t = await startTestService(identityService, ownerEnv, { workers: false, clock: fixedClock(new Date()) });
});
afterAll(() => t?.close());

const emailRound = () => t.svc.worker('email').runOnce();

test('without SMTP_URL a round keeps each due email in the log (logged); a full round says more is waiting', async () => {
  await t.svc.runtime.write(async (w) => {
    for (let i = 0; i < 21; i++) sendEmail(w, { to: `batch${i}@example.com`, subject: `batch ${i}`, body: 'hello' });
  });
  // a round claims 20: the 21st is waiting
  expect(await emailRound()).toBe(true);
  expect(await emailRound()).toBe(false);
  // nothing is due: a round changes nothing
  expect(await emailRound()).toBe(false);
  const log = await t.call('GET', '/internal/email-log?limit=200', { as: system });
  const batch = (log.body.data as Array<{ to: string; status: string; attempts: number; sentAt: string | null }>).filter((m) => m.to.startsWith('batch'));
  expect(batch).toHaveLength(21);
  for (const m of batch) expect(m).toMatchObject({ status: 'logged', attempts: 1, sentAt: null });
});
