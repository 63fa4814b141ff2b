/** The all-in-one runtime on a fresh database, signed in as its owner (tests that go through the gateway). */
import { generateInternalKeyPair, InternalTokenSigner } from '@bop/shared';
import type { Runtime } from '@bop/runtime';
import { isTestFileEnded } from './file-ended';
import { freshDatabase, http, type TestDatabase } from './harness';

export const OWNER = { email: 'owner@example.com', password: 'owner-password-1234' };

export interface TestRuntime {
  rt: Runtime;
  db: TestDatabase;
  /** signs internal tokens as the gateway does (to call a service directly) */
  signer: InternalTokenSigner;
  /** the internal token keys the runtime's services were started with (to start one again beside them) */
  keys: { publicKeyPem: string; privateKeyPem: string };
  /** Authorization header of an owner session */
  owner: Record<string, string>;
  signIn(email: string, password: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/** `database`: start on a database written before (the upgrade test); else a fresh one. */
export async function startTestRuntime(env: Record<string, string> = {}, opts: { database?: TestDatabase } = {}): Promise<TestRuntime> {
  const db = opts.database ?? (await freshDatabase({ migrated: true }));
  const keys = await generateInternalKeyPair();
  // loaded on the first start: a test file that starts no runtime gets none of its 17 services' code
  // (test-support is imported by every file, through test/close-runtimes.ts too)
  const { startAll } = await import('@bop/runtime');
  const rt = await startAll({
    DATABASE_URL: db.url,
    PORT: '0',
    SERVICE_PORTS: 'auto',
    LOG_LEVEL: 'silent',
    INTERNAL_JWT_PRIVATE_KEY: keys.privateKeyPem,
    INTERNAL_JWT_PUBLIC_KEY: keys.publicKeyPem,
    BOOTSTRAP_ADMIN_EMAIL: OWNER.email,
    BOOTSTRAP_ADMIN_PASSWORD: OWNER.password,
    ...env,
  });
  const signIn = async (email: string, password: string) => {
    const r = await http(rt.url, 'POST', '/api/v1/auth/sign-in', { body: { email, password } });
    if (r.status !== 200) throw new Error(`sign-in ${email}: ${r.status} ${JSON.stringify(r.body)}`);
    return { authorization: `Bearer ${r.body.token}` };
  };
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await rt.close();
      await db.drop();
    })());
  // a start that outlived its test file (its beforeAll timed out, so nothing will close it): closed at once
  // (and handed back closed: the timed-out hook's late continuation only assigns it)
  const ended = isTestFileEnded();
  const owner = ended ? {} : await signIn(OWNER.email, OWNER.password);
  if (ended) await close();
  return {
    rt,
    db,
    signer: await InternalTokenSigner.fromPem(keys.privateKeyPem),
    keys,
    owner,
    signIn,
    close,
  };
}

/**
 * The runtime's API as its owner: `api` answers as is; `ok` expects `status` (201 unless told) and fails
 * showing the problem otherwise. `runtime` is read at each call (suites start it in `beforeAll`).
 */
export function ownerApi(runtime: () => TestRuntime) {
  const api = (method: string, p: string, body?: unknown) => http(runtime().rt.url, method, `/api/v1${p}`, { body, headers: runtime().owner });
  async function ok(method: string, p: string, body?: unknown, status = 201) {
    const r = await api(method, p, body);
    if (r.status !== status) throw new Error(`${method} ${p}: expected ${status}, answered ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }
  return { api, ok };
}
