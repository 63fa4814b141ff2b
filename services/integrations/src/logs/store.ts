import type { z } from 'zod';
import type { IntegrationLogListQuery, IntegrationLogCreate } from '@bop/contracts';
import { mapPage, findPage, newId, type Work } from '@bop/shared';
import { IntegrationLog } from './entities';
import { logDto } from './dto';
import { levelRank } from './levels';

export async function appendLog(w: Work, integrationId: string, entry: z.output<typeof IntegrationLogCreate>) {
  const row = w.em.create(IntegrationLog, {
    id: newId('integrationLog'),
    integrationId,
    level: entry.level,
    levelRank: levelRank(entry.level),
    message: entry.message,
    context: entry.context ?? null,
    createdAt: w.now,
  });
  await w.em.flush();
  return logDto(row);
}

// `level` = that level and the more severe ones; oldest first from `from`
export async function listLogs(w: Work, integrationId: string, query: z.output<typeof IntegrationLogListQuery>) {
  const { limit, cursor, level, from } = query;
  const page = await findPage(
    w.em,
    IntegrationLog,
    [{ integrationId }, level && { levelRank: { $gte: levelRank(level) } }, from && { createdAt: { $gte: new Date(from) } }],
    { limit, cursor },
  );
  return mapPage(page, logDto);
}
