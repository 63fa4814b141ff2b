/**
 * Every test file (jest `setupFilesAfterEnv`): once its hooks run to an end, a runtime whose start is still
 * under way is closed as soon as it is up. A `beforeAll` that timed out leaves its `startTestRuntime`
 * unassigned, so the file's own `afterAll` cannot close it; without this its 17 services kept polling in
 * the worker for the rest of the run and slowed every later file (CI of 2026-11-29: starts over 120 s
 * after the first one timed out).
 */
// the flag's own module: importing @bop/test-support here loaded every service into every test file
import { markTestFileEnded } from '../test-support/src/file-ended';

afterAll(() => {
  markTestFileEnded();
});
