import { Agent, request } from 'undici';
import { blockedAddressReason } from '../endpoints/addresses';
import { hostOf, isIpLiteral } from '../endpoints/urls';
import { AddressRefused, guardedLookup } from './guard';

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** connections kept per receiver origin */
  connections: number;
}

export interface SendResult {
  /** 2xx within the time limit */
  ok: boolean;
  /** HTTP status when the receiver answered */
  status: number | null;
  error: string | null;
  retryAfter: string | null;
}

const SNIPPET_BYTES = 512;

/**
 * POSTs deliveries over keep-alive connections. Redirects are never followed (no redirect interceptor:
 * a 3xx is a failed attempt); every new connection goes through the SSRF-checked lookup.
 */
export class Sender {
  private readonly agent: Agent;

  constructor(private readonly opts: SendOptions) {
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
      connections: opts.connections,
      pipelining: 1,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      connect: { lookup: guardedLookup(opts.allowPrivate), timeout: opts.timeoutMs },
    });
  }

  async send(target: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return { ok: false, status: null, error: 'the endpoint URL is not valid', retryAfter: null };
    }
    const host = hostOf(url);
    if (!this.opts.allowPrivate && isIpLiteral(host)) {
      const reason = blockedAddressReason(host);
      if (reason) return { ok: false, status: null, error: `refused: ${host} is ${reason}`, retryAfter: null };
    }
    try {
      const res = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      const status = res.statusCode;
      const ok = status >= 200 && status < 300;
      const snippet = await readSnippet(res.body, ok ? 0 : SNIPPET_BYTES);
      const ra = res.headers['retry-after'];
      return {
        ok,
        status,
        error: ok ? null : `HTTP ${status}${snippet ? `: ${snippet}` : ''}`,
        retryAfter: Array.isArray(ra) ? (ra[0] ?? null) : (ra ?? null),
      };
    } catch (err) {
      return { ok: false, status: null, error: describe(err, this.opts.timeoutMs), retryAfter: null };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

async function readSnippet(body: AsyncIterable<Buffer> & { destroy?: () => void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (size < limit) {
      chunks.push(chunk);
      size += chunk.length;
    }
    // a receiver streaming megabytes does not hold a sender slot
    if (total > 1_000_000) {
      body.destroy?.();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8').replace(/\s+/g, ' ').trim();
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: unknown };
  const cause = e.cause as { code?: string; message?: string } | undefined;
  if (err instanceof AddressRefused || cause instanceof AddressRefused) return `refused: ${(cause instanceof AddressRefused ? cause : (err as Error)).message}`;
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `no answer within ${timeoutMs} ms`;
  }
  const code = e.code ?? cause?.code;
  const message = e.message ?? String(err);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
