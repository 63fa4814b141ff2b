/**
 * Reading the project's documents for the tests that keep them true (test/docs.test.ts,
 * test/readme-examples.test.ts): which files they are, their shell blocks, the `curl` calls in those
 * blocks, their links and their headings' anchors.
 */
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..');

/** The documents a newcomer reads, relative to the repository root: the README, docs/*.md and bench/README.md. */
export function documentFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs, 'bench/README.md', 'client/README.md'];
}

export function readDocument(file: string): string {
  return fs.readFileSync(path.join(ROOT, file), 'utf8');
}

export interface CodeBlock {
  lang: string;
  text: string;
  /** 1-based line of the block's first content line */
  line: number;
}

/** The fenced code blocks of a document, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++;
    blocks.push({ lang: open[1], text: lines.slice(start, end).join('\n'), line: start + 1 });
    i = end;
  }
  return blocks;
}

/** The text of a document's `## <heading>` section (up to the next `## `), or undefined. */
export function section(markdown: string, heading: string): string | undefined {
  return markdown.split(/^## /m).find((s) => s.startsWith(`${heading}\n`));
}

/**
 * A shell block split into simple commands, each a list of words with the quotes taken off (no
 * expansion: `$BASE` stays as written). Pipes, `;`, `&`, `&&`, `$( … )` and unquoted newlines end a
 * command; a backslash before a newline continues it; `#` at the start of a word starts a comment.
 */
export function shellCommands(block: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | null = null;
  const endWord = (): void => {
    if (word !== null) words.push(word);
    word = null;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < block.length; i++) {
    const c = block[i];
    if (c === "'") {
      const close = block.indexOf("'", i + 1);
      if (close < 0) throw new Error(`unclosed ' in: ${block.slice(i, i + 80)}`);
      word = (word ?? '') + block.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      while (j < block.length && block[j] !== '"') {
        if (block[j] === '\\' && j + 1 < block.length) j++;
        text += block[j++];
      }
      if (j >= block.length) throw new Error(`unclosed " in: ${block.slice(i, i + 80)}`);
      word = (word ?? '') + text;
      i = j;
    } else if (c === '\\' && block[i + 1] === '\n') {
      endWord();
      i++;
    } else if (c === '\\') {
      word = (word ?? '') + (block[i + 1] ?? '');
      i++;
    } else if (c === '#' && word === null) {
      while (i < block.length && block[i] !== '\n') i++;
      endCommand();
    } else if (c === '\n' || c === '|' || c === ';' || c === '&' || c === '(' || c === ')') {
      endCommand();
    } else if (c === ' ' || c === '\t') {
      endWord();
    } else {
      word = (word ?? '') + c;
    }
  }
  endCommand();
  return commands;
}

export interface CurlCall {
  method: string;
  /** the URL as written, e.g. `$BASE/locations?limit=50` */
  url: string;
  /** the path under /api/v1 without the query, e.g. `/locations`; null when the URL is not under the API */
  path: string | null;
  query: string;
  /** the `-d` text, as written */
  data?: string;
  /** a multipart upload (`-F`) */
  form: boolean;
}

/** curl options that take a value (the value is the next word) */
const CURL_VALUE_OPTIONS = new Set(['-H', '--header', '-o', '--output', '-u', '--user', '-w', '--write-out', '-m', '--max-time', '-A', '--user-agent', '-e', '--referer', '-b', '--cookie', '-c', '--cookie-jar', '--connect-timeout', '-x', '--proxy', '-r', '--range']);
const CURL_DATA_OPTIONS = new Set(['-d', '--data', '--data-raw', '--data-binary', '--json']);
const CURL_FORM_OPTIONS = new Set(['-F', '--form']);

/** The curl calls of a shell block. The API's base is `$BASE` or `…/api/v1`. */
export function curlCalls(block: string): CurlCall[] {
  const calls: CurlCall[] = [];
  for (const words of shellCommands(block)) {
    const start = words.indexOf('curl');
    if (start < 0) continue;
    let method: string | undefined;
    let url: string | undefined;
    let data: string | undefined;
    let form = false;
    for (let i = start + 1; i < words.length; i++) {
      const w = words[i];
      if (w === '-X' || w === '--request') method = words[++i];
      else if (CURL_DATA_OPTIONS.has(w)) data = words[++i];
      else if (CURL_FORM_OPTIONS.has(w)) {
        form = true;
        i++;
      } else if (CURL_VALUE_OPTIONS.has(w)) i++;
      else if (w.startsWith('-')) continue;
      else url ??= w;
    }
    if (!url) continue;
    const [location, query = ''] = url.split('?', 2);
    const api = /\/api\/v1(\/.*)$/.exec(location) ?? /^\$\{?BASE\}?(\/.*)$/.exec(location);
    calls.push({ method: method ?? (data !== undefined || form ? 'POST' : 'GET'), url, path: api ? api[1] : null, query, data, form });
  }
  return calls;
}

export interface Link {
  text: string;
  target: string;
  line: number;
}

/** The inline links `[text](target)` of a document, outside code blocks and code spans. */
export function links(markdown: string): Link[] {
  const out: Link[] = [];
  let inBlock = false;
  markdown.split('\n').forEach((raw, i) => {
    if (/^\s*```/.test(raw)) {
      inBlock = !inBlock;
      return;
    }
    if (inBlock) return;
    const line = raw.replace(/`[^`]*`/g, '``');
    for (const m of line.matchAll(/\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ text: m[1], target: m[2], line: i + 1 });
  });
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inBlock = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) inBlock = !inBlock;
    if (inBlock) continue;
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}
