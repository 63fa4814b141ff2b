/**
 * Whether the current test file has ended (test/close-runtimes.ts marks it in an \`afterAll\` of every
 * file): a runtime whose start finishes later — its \`beforeAll\` timed out, so the file's own \`afterAll\`
 * found nothing to close — is closed as soon as it is up, instead of keeping 17 services polling in the
 * jest worker for the rest of the run. Each test file has its own module registry, so its own flag. A
 * module of its own: the set-up file imports it without loading the rest of test-support.
 */
let fileEnded = false;

export function markTestFileEnded(): void {
  fileEnded = true;
}

export function isTestFileEnded(): boolean {
  return fileEnded;
}
