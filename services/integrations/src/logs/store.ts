import type { z } from 'zod';
import type { IntegrationLogListQuery, IntegrationLogCreate } from '@bop/contracts';
import { mapPage, findPage, newId, type EntityManager } from '@bop/shared';
import { IntegrationLog } from './entities';
import { logDto } from './dto';
import { levelRank } from './levels';

export async function appendLog(em: EntityManager, integrationId: string, entry: z.output<typeof IntegrationLogCreate>, now: Date) {
  const row = em.create(IntegrationLog, {
    id: newId('integrationLog'),
    integrationId,
    level: entry.level,
    levelRank: levelRank(entry.level),
    message: entry.message,
    context: entry.context ?? null,
    createdAt: now,
  });
  await em.flush();
  return logDto(row);
}

// `level` = that level and the more severe ones; oldest first from `from`
export async function listLogs(em: EntityManager, integrationId: string, query: z.output<typeof IntegrationLogListQuery>) {
  const { limit, cursor, level, from } = query;
  const page = await findPage(
    em,
    IntegrationLog,
    [{ integrationId }, level && { levelRank: { $gte: levelRank(level) } }, from && { createdAt: { $gte: new Date(from) } }],
    { limit, cursor },
  );
  return mapPage(page, logDto);
}
