/**
 * Which content type an upload is stored as: what its bytes are (a file-type signature, or text),
 * checked against what the uploader declared. A file is never stored under a type its bytes
 * contradict, so a download served with the stored type is what it says it is.
 */

/**
 * Declared types that say nothing about the content. A file part without a Content-Type is
 * text/plain by default (RFC 7578 §4.4), so a declared text/plain says nothing either.
 */
const GENERIC = new Set(['application/octet-stream', 'binary/octet-stream', 'application/unknown', 'application/x-unknown', 'text/plain']);

/** Other names of the same type, as browsers and tools send them. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'application/x-pdf': 'application/pdf',
  'text/comma-separated-values': 'text/csv',
  'application/csv': 'text/csv',
  'text/x-csv': 'text/csv',
  'image/heif': 'image/heic',
};

/** Office documents are ZIP files: a head too short to show their parts is identified as ZIP. */
const ZIP_BASED = /^application\/(vnd\.openxmlformats-officedocument\.|vnd\.oasis\.opendocument\.|epub\+zip$)/;

/** `Image/PNG; charset=x` → `image/png`; empty → null. */
export function normaliseType(type: string | null | undefined): string | null {
  const bare = (type ?? '').split(';')[0].trim().toLowerCase();
  if (!bare) return null;
  return ALIASES[bare] ?? bare;
}

export interface ContentEvidence {
  /** the part's declared Content-Type */
  declared: string | null;
  /** what a signature in the first bytes identifies (null: none) */
  sniffed: string | null;
  /** the first bytes are UTF-8 text without control characters */
  text: boolean;
  fileName: string;
}

export type ContentDecision = { contentType: string } | { contradiction: string };

export function identifyContent(e: ContentEvidence): ContentDecision {
  const declared = normaliseType(e.declared);
  const generic = declared === null || GENERIC.has(declared);
  const sniffed = normaliseType(e.sniffed);
  if (sniffed) {
    if (generic || declared === sniffed) return { contentType: sniffed };
    if (sniffed === 'application/zip' && ZIP_BASED.test(declared)) return { contentType: declared };
    return { contradiction: `The file's bytes are ${sniffed}, not the declared ${declared}.` };
  }
  if (e.text) {
    if (generic) return { contentType: /\.csv$/i.test(e.fileName) ? 'text/csv' : 'text/plain' };
    if (declared.startsWith('text/')) return { contentType: declared };
    return { contradiction: `The file's bytes are text, not the declared ${declared}.` };
  }
  if (generic) return { contentType: 'application/octet-stream' };
  return { contradiction: `The file's bytes could not be identified as the declared ${declared}.` };
}

/** Whether the allow-list (`*` = anything) accepts a type; `image/*` accepts every image type. */
export function isAllowedType(type: string, allowList: readonly string[]): boolean {
  return allowList.some((a) => a === '*' || a === type || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))));
}

/** `STORAGE_ALLOWED_TYPES` as a list. */
export function parseAllowList(setting: string): string[] {
  return setting
    .split(',')
    .map((t) => normaliseType(t) ?? '')
    .filter(Boolean);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether the first bytes read as text: valid UTF-8 (a multi-byte character cut at the end of the
 * sample is allowed) with no control characters other than tab, line feed, form feed and carriage return.
 */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.length === 0) return true;
  for (const b of head) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) return false;
  // drop an incomplete trailing sequence (up to 3 bytes) before decoding strictly
  for (let cut = 0; cut <= 3 && cut < head.length; cut++) {
    try {
      decoder.decode(head.subarray(0, head.length - cut));
      return true;
    } catch {
      if (cut === 0 && !endsInsideSequence(head)) return false;
    }
  }
  return false;
}

function endsInsideSequence(head: Uint8Array): boolean {
  for (let i = head.length - 1; i >= Math.max(0, head.length - 4); i--) {
    const b = head[i];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte
    return (b & 0xc0) === 0xc0; // a lead byte whose sequence runs past the end
  }
  return false;
}

/**
 * The file name to keep and send back in `Content-Disposition`: the last path segment only, without
 * control characters, at most 255 characters; null when nothing usable is left.
 */
export function cleanFileName(raw: string | null | undefined): string | null {
  const last = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const cleaned = last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!cleaned || cleaned === '.' || cleaned === '..') return null;
  return [...cleaned].slice(0, 255).join('');
}
