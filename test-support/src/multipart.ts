/** multipart/form-data requests for upload tests: small ones through fetch, large ones streamed as they are generated. */
import http from 'node:http';
import { randomBytes } from 'node:crypto';

export interface FilePart {
  name?: string;
  fileName: string;
  contentType?: string;
  /** the bytes, or a generator of them (streamed, never whole in memory) */
  content: Buffer | (() => AsyncIterable<Buffer>);
  /** the content's length when it is a generator (for Content-Length) */
  size?: number;
}

export type FormPart = FilePart | { name: string; value: string };

const isFile = (p: FormPart): p is FilePart => 'content' in p;

/**
 * POSTs a multipart form to `base + path`, streaming it (a file part's generator is read as the
 * request is sent). With every size known, Content-Length is sent; otherwise the body is chunked.
 */
export function postMultipart(
  base: string,
  path: string,
  parts: FormPart[],
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  const boundary = `----bop${randomBytes(12).toString('hex')}`;
  const heads = parts.map((p) => {
    const disposition = isFile(p)
      ? `form-data; name="${p.name ?? 'file'}"; filename="${p.fileName.replace(/"/g, '%22')}"; filename*=UTF-8''${encodeURIComponent(p.fileName)}`
      : `form-data; name="${p.name}"`;
    const type = isFile(p) && p.contentType ? `\r\nContent-Type: ${p.contentType}` : '';
    return Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`);
  });
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const sizes = parts.map((p) => (isFile(p) ? (Buffer.isBuffer(p.content) ? p.content.length : p.size) : Buffer.byteLength(p.value)));
  const known = sizes.every((s) => s !== undefined);
  const length = known ? heads.reduce((n, h, i) => n + h.length + sizes[i]! + 2, tail.length) : undefined;
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...(length !== undefined ? { 'content-length': String(length) } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          // answered before the whole body was sent (413, 422): stop sending, as a client does
          if (!req.writableFinished) req.destroy();
          const text = Buffer.concat(chunks).toString('utf8');
          let body: any = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // keep the text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
        res.on('error', reject);
      },
    );
    // the server may answer (413, 422) before the whole body is sent and close the connection
    req.on('error', (err) => reject(err));
    void (async () => {
      const write = (b: Buffer) => (req.write(b) ? Promise.resolve() : new Promise<void>((r) => req.once('drain', () => r())));
      try {
        for (const [i, p] of parts.entries()) {
          await write(heads[i]);
          if (isFile(p)) {
            if (Buffer.isBuffer(p.content)) await write(p.content);
            else for await (const chunk of p.content()) await write(chunk);
          } else await write(Buffer.from(p.value));
          await write(Buffer.from('\r\n'));
          if (req.destroyed) return;
        }
        req.end(tail);
      } catch {
        // the answer (or the error) comes through the response
      }
    })();
  });
}

/** `total` bytes of a repeating pattern after `head`, in chunks of 64 KiB, generated as they are read. */
export function generatedBytes(total: number, head: Buffer = Buffer.alloc(0)): () => AsyncIterable<Buffer> {
  return async function* () {
    if (head.length > 0) yield head;
    const chunk = Buffer.alloc(64 * 1024, 'abcdefghijklmnopqrstuvwxyz0123456789\n');
    let left = total - head.length;
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      yield n === chunk.length ? chunk : chunk.subarray(0, n);
      left -= n;
    }
  };
}
