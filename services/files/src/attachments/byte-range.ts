import rangeParser from 'range-parser';

export type RangeChoice = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * What a download answers to a `Range` header (RFC 9110 §14): one byte range → 206 with it; a range
 * past the end → 416; no header, a malformed one, several ranges, another unit, or an `If-Range`
 * that no longer matches the file → the whole file (a server may ignore Range).
 */
export function chooseRange(size: number, range: string | undefined, ifRange: string | undefined, etag: string): RangeChoice {
  if (!range) return { kind: 'full' };
  if (ifRange !== undefined && ifRange.trim() !== etag) return { kind: 'full' };
  const parsed = rangeParser(size, range, { combine: true });
  if (parsed === -1) return { kind: 'unsatisfiable' };
  if (parsed === -2 || parsed.type !== 'bytes' || parsed.length !== 1) return { kind: 'full' };
  return { kind: 'partial', start: parsed[0].start, end: parsed[0].end };
}
