import path from 'node:path';
import type { ServerResponse } from 'node:http';
import express, { type Router } from 'express';
import type { GatewayRequest } from './context';
import { requestProtocol } from './steps/rate-limit';
import { buildOpenApi, errorCodes, type ErrorCode } from '@bop/contracts';
import { NotFound } from '@bop/shared';
import type { FeatureSwitches } from './steps/features';
import type { Upstreams } from './upstreams';

/** What each error code means (spec: Errors), for `GET /docs/errors/<code>` — where problem `type`s point. */
const errorMeanings: Record<ErrorCode, string> = {
  bad_request: 'Malformed JSON or parameters.',
  unauthorized: 'Missing, invalid, expired or revoked key, or wrong sign-in details.',
  session_expired: 'The session ended; sign in again.',
  mfa_required: 'Sign-in must be finished at POST /auth/sign-in/mfa.',
  forbidden: 'The key lacks the scope, or the person lacks the permission.',
  out_of_reach: 'The permission does not reach this location or employee.',
  mfa_enrollment_required: 'The company requires two-factor authentication and the person has not set it up (POST /auth/mfa/enrollment).',
  not_linked_to_employee: 'The employee area (/me/profile, /me/activity …) is for accounts linked to an employee record; this account is not.',
  not_found: 'No such record or endpoint (also used for files the caller may not see).',
  feature_disabled: 'The feature is switched off.',
  conflict: 'Duplicate, or an Idempotency-Key reused with a different body or while its first request is still running.',
  version_mismatch: 'If-Match does not match the current version.',
  period_locked: 'The business day or pay period is locked.',
  payload_too_large: 'The upload or body is larger than the limit.',
  range_not_satisfiable: 'A download asked for a byte range (Range) that lies outside the file; Content-Range names its size.',
  validation_error: 'Field errors in `errors[]`.',
  insufficient_stock: 'Not enough stock to reserve or ship.',
  rate_limited: 'Over the rate limit; wait for the Retry-After header’s seconds.',
  internal_error: 'Something failed on the server; retry with backoff and quote requestId.',
  service_unavailable: 'A part of the service is not reachable right now; retry with backoff.',
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const docsPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>API reference</title>
  <link rel="icon" type="image/png" href="/docs/api/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/api/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/api/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/api/init.js"></script>
</body>
</html>
`;

// validatorUrl null: the page makes no call outside this host
const initScript = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout'
});
`;

/** `GET /api/v1/openapi.json` (cached per served set, switch states and server address) and the pages under /docs. */
export class ApiDocs {
  private cache: { key: string; json: string } | null = null;

  constructor(
    private readonly upstreams: Upstreams,
    private readonly features: FeatureSwitches,
    private readonly publicBaseUrl: string | undefined,
    private readonly errorsBaseUrl: string,
    private readonly trustProxy: boolean | number | string,
  ) {}

  document(serverUrl: string): string {
    const key = `${this.upstreams.version}|${this.features.version}|${serverUrl}`;
    if (this.cache?.key !== key) {
      const served = new Set(this.upstreams.servedKeys());
      served.add('GET /openapi.json');
      const doc = buildOpenApi({ served, enabledFeature: (k) => this.features.isOn([k]), serverUrl, errorsBaseUrl: this.errorsBaseUrl });
      this.cache = { key, json: JSON.stringify(doc) };
    }
    return this.cache.json;
  }

  openapi = (req: GatewayRequest, res: ServerResponse): void => {
    const base = this.publicBaseUrl?.replace(/\/$/, '') ?? `${requestProtocol(req, this.trustProxy)}://${req.headers.host}`;
    const json = this.document(`${base}/api/v1`);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(json));
    res.end(json);
  };

  router(): Router {
    const r = express.Router();
    r.get('/api', (_req, res) => {
      res.type('html').send(docsPage);
    });
    r.get('/api/init.js', (_req, res) => {
      res.type('application/javascript').send(initScript);
    });
    r.use('/api/assets', express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1d', fallthrough: true }));
    r.get('/errors', (_req, res) => {
      const items = (Object.keys(errorCodes) as ErrorCode[])
        .map((c) => `<li><a href="/docs/errors/${c}"><code>${c}</code></a> (${errorCodes[c].status}) — ${escapeHtml(errorMeanings[c])}</li>`)
        .join('\n');
      res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error codes</title></head><body><h1>Error codes</h1><ul>${items}</ul></body></html>`);
    });
    r.get('/errors/:code', (req, res) => {
      const code = req.params.code as ErrorCode;
      if (!(code in errorCodes)) throw new NotFound('error code');
      const e = errorCodes[code];
      if (req.accepts(['html', 'json']) === 'json') {
        res.json({ type: `${this.errorsBaseUrl.replace(/\/$/, '')}/${code}`, code, status: e.status, title: e.title, meaning: errorMeanings[code] });
        return;
      }
      res
        .type('html')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${code}</title></head><body><h1><code>${code}</code> — ${escapeHtml(e.title)}</h1><p>HTTP ${e.status}. ${escapeHtml(errorMeanings[code])}</p><p>Problem details carry this as <code>code</code>; branch on it, not on the title. <a href="/docs/errors">All codes</a></p></body></html>`,
        );
    });
    return r;
  }
}
