import fs from 'node:fs';
import { finishEmitsCheck } from './emits-check.mjs';

export default async function globalTeardown() {
  try {
    await globalThis.__BOP_TEST_KAFKA__?.stop();
    const held = globalThis.__BOP_TEST_PG__;
    if (!held) return;
    await held.pg.stop();
    fs.rmSync(held.base, { recursive: true, force: true });
  } finally {
    finishEmitsCheck(globalThis.__BOP_EMITS_DIR__);
  }
}
