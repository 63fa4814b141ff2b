/** A real local webhook receiver (not a mock of ours) and a receiver's signature check, written from the spec. */
import http from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface Received {
  /** the request path (e.g. `/hooks`) */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** the raw body bytes as text, before any JSON parsing */
  raw: string;
  json: any;
  at: number;
}

export type Responder = (req: Received) => { status: number; headers?: Record<string, string>; delayMs?: number } | number;

/** A real local HTTP receiver on 127.0.0.1 (port 0), answering with `respond` (default 200). */
export class Receiver {
  readonly received: Received[] = [];
  respond: Responder = () => 200;
  private server!: http.Server;
  /** `http://127.0.0.1:<port>`: any path under it is received */
  base = '';
  /** `<base>/hooks` */
  url = '';

  static async start(respond?: Responder): Promise<Receiver> {
    const r = new Receiver();
    if (respond) r.respond = respond;
    r.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let json: any = null;
        try {
          json = JSON.parse(raw);
        } catch {
          // keep raw
        }
        const got: Received = { path: req.url ?? '', headers: req.headers, raw, json, at: Date.now() };
        r.received.push(got);
        const answer = r.respond(got);
        const { status, headers, delayMs } = typeof answer === 'number' ? { status: answer, headers: undefined, delayMs: 0 } : answer;
        const send = () => {
          res.writeHead(status, headers);
          res.end(status >= 300 ? `receiver says ${status}` : 'ok');
        };
        if (delayMs) setTimeout(send, delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    const addr = r.server.address() as { port: number };
    r.base = `http://127.0.0.1:${addr.port}`;
    r.url = `${r.base}/hooks`;
    return r;
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  ofType(type: string): Received[] {
    return this.received.filter((r) => r.json?.type === type);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A receiver's check, written independently of the service as the spec's Signature section reads: HMAC-SHA256
 * keyed with the secret as issued (its text, `whsec_` included) over "<t>.<raw body>", constant-time compare.
 */
export function verifySignature(header: string, raw: string, secret: string): { t: number; valid: number; total: number } {
  const parts = header.split(',').map((p) => {
    const i = p.indexOf('=');
    return [p.slice(0, i), p.slice(i + 1)];
  });
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const expected = createHmac('sha256', secret).update(`${t}.${raw}`, 'utf8').digest();
  const sigs = parts.filter(([k]) => k === 'v1').map(([, v]) => Buffer.from(v, 'hex'));
  const valid = sigs.filter((s) => s.length === expected.length && timingSafeEqual(s, expected)).length;
  return { t, valid, total: sigs.length };
}
