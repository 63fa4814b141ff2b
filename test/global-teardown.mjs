import fs from 'node:fs';
import pg from 'pg';
import { finishEmitsCheck } from './emits-check.mjs';

export default async function globalTeardown() {
  try {
    await globalThis.__BOP_TEST_KAFKA__?.stop();
    const held = globalThis.__BOP_TEST_PG__;
    if (!held) {
      // a server of DATABASE_URL keeps running: the run's template database goes
      const template = globalThis.__BOP_TEST_TEMPLATE__;
      if (!template) return;
      const admin = new pg.Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
      await admin.connect();
      await admin.query(`drop database if exists "${template}" with (force)`).finally(() => admin.end());
      return;
    }
    await held.pg.stop();
    fs.rmSync(held.base, { recursive: true, force: true });
  } finally {
    finishEmitsCheck(globalThis.__BOP_EMITS_DIR__);
  }
}
