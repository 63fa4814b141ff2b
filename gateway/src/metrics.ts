import type { ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { enableMetrics, recordHttp, serveMetrics } from '@bop/shared';
import type { GatewayConfig } from './config';
import type { GatewayRequest } from './context';

export interface GatewayMetrics {
  /** counts an /api/v1 request by its catalogue path when its answer is sent */
  observe(req: GatewayRequest, res: ServerResponse): void;
  /** `GET /api/metrics`: the whole runtime in the all-in-one mode (every thread), this gateway in the distributed one */
  serve(req: Request, res: Response): Promise<void>;
}

/** The gateway's metrics, or null with METRICS_ENABLED off (then nothing is counted and /api/metrics is a 404). */
export function gatewayMetrics(config: GatewayConfig): GatewayMetrics | null {
  if (!config.METRICS_ENABLED) return null;
  enableMetrics();
  return {
    observe(req, res) {
      res.once('finish', () => {
        const route = req.gw.route ? req.gw.route.row.path : 'unmatched';
        recordHttp('gateway', route, req.method ?? 'GET', res.statusCode, (performance.now() - req.gw.startedAt) / 1000);
      });
    },
    serve: (req, res) => serveMetrics(req, res, config.METRICS_TOKEN),
  };
}
