import type { FieldError } from './errors';
import { formatPath } from './validation';

/**
 * What the kit refuses at its edge, before any handler, zod schema or database sees a request:
 * NUL characters (Postgres `text`/`jsonb` cannot hold them) and lone UTF-16 surrogates (not
 * encodable as UTF-8) in any string — JSON values and keys, path parameters, query keys and values —,
 * JSON nested deeper than a limit (recursive code after `JSON.parse` would exhaust the stack) and
 * percent-encoding that does not decode.
 */

/** A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- the NUL is what this finds
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const BAD_TEXT_ALL = new RegExp(BAD_TEXT.source, 'g');

/** The string with each NUL or lone surrogate replaced by U+FFFD (to name a bad key without echoing it). */
export function printable(s: string): string {
  return s.replace(BAD_TEXT_ALL, '\uFFFD');
}

/** Why a string cannot be accepted, or null when it can. */
export function badTextReason(s: string): string | null {
  const m = BAD_TEXT.exec(s);
  if (!m) return null;
  return m[0] === '\u0000' ? 'Must not contain the NUL character (\\u0000).' : 'Must not contain a lone UTF-16 surrogate (invalid Unicode).';
}

export interface JsonScanOptions {
  /** deepest nesting accepted: an object or array at the top is depth 1 */
  maxDepth: number;
  /** stop collecting after this many field errors (default 20) */
  maxErrors?: number;
  /** top-level keys whose contents are not checked for bad text (records a batch judges one by one); depth still is */
  skipTextUnder?: ReadonlySet<string>;
}

export interface JsonScanResult {
  /** the path of the first value nested deeper than `maxDepth` ('' for the root), or null */
  tooDeepAt: string | null;
  /** bad text in string values and keys, by field path */
  errors: FieldError[];
}

interface Frame {
  value: unknown;
  key: PropertyKey | null;
  parent: Frame | null;
  depth: number;
  checkText: boolean;
}

function pathOf(frame: Frame, last?: PropertyKey): string {
  const segs: PropertyKey[] = last === undefined ? [] : [last];
  for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) segs.push(f.key);
  return formatPath(segs.reverse().map((k) => (typeof k === 'string' ? printable(k) : k)));
}

/**
 * Walks a parsed JSON value iteratively (no recursion, so any nesting is safe to inspect): the first
 * place nested deeper than `maxDepth`, and every string value or key with bad text.
 */
export function scanJson(value: unknown, opts: JsonScanOptions): JsonScanResult {
  const maxErrors = opts.maxErrors ?? 20;
  const errors: FieldError[] = [];
  const stack: Frame[] = [{ value, key: null, parent: null, depth: 0, checkText: true }];
  while (stack.length > 0) {
    const f = stack.pop()!;
    const v = f.value;
    if (typeof v === 'string') {
      if (f.checkText && errors.length < maxErrors) {
        const reason = badTextReason(v);
        if (reason) errors.push({ path: pathOf(f), message: reason });
      }
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const depth = f.depth + 1;
    if (depth > opts.maxDepth) return { tooDeepAt: pathOf(f), errors };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: f, depth, checkText: f.checkText });
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i];
      if (f.checkText && errors.length < maxErrors) {
        const reason = badTextReason(k);
        if (reason) errors.push({ path: pathOf(f, k), message: `Field name: ${reason}` });
      }
      const checkText = f.checkText && !(f.parent === null && opts.skipTextUnder?.has(k));
      stack.push({ value: (v as Record<string, unknown>)[k], key: k, parent: f, depth, checkText });
    }
  }
  return { tooDeepAt: null, errors };
}

/** Bad text in string-valued parameters (path parameters, query keys and values), named by parameter. */
export function badTextInParams(params: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [k, v] of Object.entries(params)) {
    const keyReason = badTextReason(k);
    if (keyReason) {
      errors.push({ path: printable(k), message: `Parameter name: ${keyReason}` });
      continue;
    }
    const values = Array.isArray(v) ? v : [v];
    for (const one of values) {
      const reason = typeof one === 'string' ? badTextReason(one) : null;
      if (reason) {
        errors.push({ path: k, message: reason });
        break;
      }
    }
  }
  return errors;
}

/**
 * Whether the path and every query component of a request target decode (`decodeURIComponent`):
 * null when they do, else what does not (a truncated `%E0%A4%A`, or bytes that are not UTF-8).
 */
export function malformedPercentEncoding(url: string): string | null {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path.includes('%')) {
    try {
      decodeURIComponent(path);
    } catch {
      return 'The path has malformed percent-encoding (or encodes bytes that are not UTF-8).';
    }
  }
  if (q !== -1) {
    const query = url.slice(q + 1);
    if (query.includes('%')) {
      for (const part of query.split(/[&=]/)) {
        if (!part.includes('%')) continue;
        try {
          decodeURIComponent(part.replace(/\+/g, ' '));
        } catch {
          return 'The query string has malformed percent-encoding (or encodes bytes that are not UTF-8).';
        }
      }
    }
  }
  return null;
}
