import fs from 'node:fs';

export default async function globalTeardown() {
  await globalThis.__BOP_TEST_KAFKA__?.stop();
  const held = globalThis.__BOP_TEST_PG__;
  if (!held) return;
  await held.pg.stop();
  fs.rmSync(held.base, { recursive: true, force: true });
}
