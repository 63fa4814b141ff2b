/**
 * Loaded into the runtime with `node -r` (by bench/soak.ts through BENCH_NODE_FLAGS): every 5 s each
 * thread (the main one and every worker thread, which inherit the flag) writes its heap and, from the
 * main thread, the process's RSS to `BENCH_MEMORY_DIR/<pid>-<threadId>.json`. The timer is unref'd:
 * it never keeps the runtime alive.
 */
import fs from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

const dir = process.env.BENCH_MEMORY_DIR;
if (dir) {
  const file = path.join(dir, `${process.pid}-${threadId}.json`);
  const write = () => {
    const m = process.memoryUsage();
    try {
      fs.writeFileSync(file, JSON.stringify({ at: Date.now(), threadId, rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal }));
    } catch {
      // the directory went away with the bench
    }
  };
  write();
  setInterval(write, 5000).unref();
}
