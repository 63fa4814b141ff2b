import fs from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { eventTypes } from '@bop/contracts';

/**
 * The test run's record of what each committed route unit emitted (issue 41 item 3): when
 * `BOP_EMITS_RECORD_DIR` names a directory (test/global-setup.mjs sets it for the jest run, and child
 * processes inherit it), every committed write of a route appends one line `{ route, requestId, types }`
 * (the public event types, in emit order, without repeats) to a file of its own process and thread
 * there. test/global-teardown.mjs reads them all and holds each catalogue row to the emits table
 * (contracts/src/catalogue/emits.ts); an internal route's line counts for the catalogue row whose
 * request (same request id) called it. Outside tests: one env read at start-up, nothing else.
 */
const dir = process.env.BOP_EMITS_RECORD_DIR || null;
const publicTypes = new Set(eventTypes.map((e) => e.type));
let fd: number | null = null;

export const recordingEmits = dir !== null;

export function recordRouteEmits(route: string, requestId: string | undefined, emitted: readonly string[]): void {
  if (dir === null) return;
  const types = [...new Set(emitted.filter((t) => publicTypes.has(t)))];
  fd ??= fs.openSync(path.join(dir, `emits-${process.pid}-${threadId}.jsonl`), 'a');
  fs.writeSync(fd, JSON.stringify({ route, requestId: requestId ?? null, types }) + '\n');
}
