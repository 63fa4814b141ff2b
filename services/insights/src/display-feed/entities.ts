import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A location's feed of today's KPIs to the team displays: marked `dirty` by the read models'
 * consumers (in their transaction), sent by the `display-feed` worker at most once per
 * `DISPLAY_FEED_THROTTLE_MS` (`sentAt`), however many sales arrive in between.
 */
export const DisplayFeed = defineEntity({
  name: 'DisplayFeed',
  tableName: 'display_feeds',
  properties: {
    locationId: p.string().primary(),
    dirty: p.boolean(),
    markedAt: p.datetime(),
    sentAt: p.datetime().nullable(),
  },
});
export type DisplayFeed = InferEntity<typeof DisplayFeed>;
