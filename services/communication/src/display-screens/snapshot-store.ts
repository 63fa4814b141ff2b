import { Announcement } from '../announcements/entities';
import { DisplayMetric } from '../display-metrics/entities';
import { displayMetricDto } from '../display-metrics/dto';
import { Recognition } from '../recognitions/entities';
import type { Work } from '@bop/shared';
import type { DisplayScreen } from './entities';
import { rankLeaderboard } from './leaderboard';

const DAY_MS = 86_400_000;
/** at most this many recognitions are counted for one leaderboard (newest first) */
const LEADERBOARD_ROWS = 5000;

/**
 * Everything a paired screen shows, as of now: its layout, the location's metrics (those the layout
 * names, in its order; all when it names none), the recognition leaderboard over the layout's period,
 * and the location's announcements of today (published in the last 24 hours, or with an
 * acknowledgement deadline still ahead) whose audience is the whole location or company.
 */
export async function displaySnapshot(w: Work, screen: DisplayScreen) {
  const { config, locationId } = screen;
  const now = w.now;
  const metricRows = await w.em.find(DisplayMetric, { locationId, ...(config.metrics.length > 0 ? { name: { $in: config.metrics } } : {}) }, { orderBy: { name: 'asc' } });
  const order = new Map(config.metrics.map((m, i) => [m, i]));
  if (order.size > 0) metricRows.sort((a, b) => order.get(a.name)! - order.get(b.name)!);

  let leaderboard = null;
  if (config.leaderboard.enabled) {
    const since = new Date(now.getTime() - config.leaderboard.periodDays * DAY_MS);
    const rows = await w.em.find(Recognition, { locationId, createdAt: { $gte: since } }, { fields: ['employeeId', 'employeeName', 'createdAt'], orderBy: { id: 'desc' }, limit: LEADERBOARD_ROWS });
    leaderboard = { periodDays: config.leaderboard.periodDays, since: since.toISOString(), entries: rankLeaderboard(rows, config.leaderboard.size) };
  }

  let announcements = null;
  if (config.announcements.enabled) {
    const rows = await w.em.find(
      Announcement,
      {
        status: 'published',
        $or: [{ locationIds: { $contains: [locationId] } }, { locationIds: { $eq: [] } }],
        $and: [{ $or: [{ publishedAt: { $gte: new Date(now.getTime() - DAY_MS) } }, { acknowledgeBy: { $gt: now } }] }],
      },
      { orderBy: { publishedAt: 'desc' }, limit: 50 },
    );
    announcements = rows
      .filter((a) => a.audience.departmentIds.length === 0 && a.audience.positions.length === 0)
      .slice(0, config.announcements.limit)
      .map((a) => ({
        id: a.id,
        title: a.title,
        body: a.body,
        publishedAt: a.publishedAt ? new Date(a.publishedAt).toISOString() : null,
        acknowledgementRequired: a.acknowledgementRequired,
        acknowledgeBy: a.acknowledgeBy ? new Date(a.acknowledgeBy).toISOString() : null,
      }));
  }

  return {
    screen: { id: screen.id, name: screen.name ?? null, locationId },
    config,
    metrics: metricRows.map(displayMetricDto),
    leaderboard,
    announcements,
    asOf: now.toISOString(),
  };
}

export type DisplaySnapshot = Awaited<ReturnType<typeof displaySnapshot>>;
