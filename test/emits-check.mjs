// The end of the jest run's change-event check (issue 41 item 3): what the routes were seen recording
// (shared/src/emit-recorder.ts writes one line per committed route unit into BOP_EMITS_RECORD_DIR)
// against the emits table (contracts/src/catalogue/emits.ts, read from contracts/dist: `npm run build`
// after changing it, as for the runtime's child processes).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Reads the recorded lines; an internal route's types count for the catalogue route of the same request. */
export function readRecorded(dir) {
  const lines = [];
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
    for (const text of fs.readFileSync(path.join(dir, name), 'utf8').split('\n')) if (text) lines.push(JSON.parse(text));
  }
  return lines;
}

/**
 * `{ wrong, seen, unexercised }`: wrong, "<row>: <type>" for each public type a row was seen recording
 * that its table entry does not list; seen, the rows a committed unit served; unexercised, the table's
 * rows no suite committed.
 */
export function checkEmits(lines, emits) {
  const rowOf = new Map();
  for (const l of lines) if (l.requestId && l.route in emits) rowOf.set(l.requestId, l.route);
  const seenTypes = new Map();
  for (const l of lines) {
    const row = l.route in emits ? l.route : l.requestId ? rowOf.get(l.requestId) : undefined;
    if (!row) continue; // a kit test's own row, or an internal call no catalogue request made
    const types = seenTypes.get(row) ?? new Set();
    for (const t of l.types) types.add(t);
    seenTypes.set(row, types);
  }
  const wrong = [];
  for (const [row, types] of seenTypes) {
    const entry = emits[row];
    const listed = new Set('events' in entry ? entry.events : []);
    for (const t of types) if (!listed.has(t)) wrong.push(`${row}: ${t}${'exempt' in entry ? ` (exempt: ${entry.exempt})` : ''}`);
  }
  const unexercised = Object.keys(emits).filter((row) => !seenTypes.has(row));
  return { wrong: wrong.sort(), seen: [...seenTypes.keys()], unexercised };
}

/** Global teardown's part: prints the coverage, throws (failing the run) on a row seen recording an unlisted public type. */
export function finishEmitsCheck(dir) {
  if (!dir || !fs.existsSync(dir)) return;
  try {
    const lines = readRecorded(dir);
    if (lines.length === 0) return;
    const { emits } = require('../contracts/dist/catalogue/emits.js');
    const { wrong, seen, unexercised } = checkEmits(lines, emits);
    console.log(`\nchange events: ${seen.length} of ${Object.keys(emits).length} mutating rows committed in this run; not exercised: ${unexercised.length}${unexercised.length && process.env.BOP_EMITS_LIST !== '0' ? `\n  ${unexercised.join('\n  ')}` : ''}`);
    if (wrong.length > 0) {
      throw new Error(`change events: routes recorded public event types their row in contracts/src/catalogue/emits.ts does not list:\n  ${wrong.join('\n  ')}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
