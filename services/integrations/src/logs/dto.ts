import type { IntegrationLog } from './entities';

export function logDto(l: IntegrationLog) {
  return {
    id: l.id,
    integrationId: l.integrationId,
    level: l.level as 'debug' | 'info' | 'warning' | 'error',
    message: l.message,
    context: l.context ?? null,
    createdAt: l.createdAt.toISOString(),
  };
}
