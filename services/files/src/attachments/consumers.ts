import { defineConsumer } from '@bop/shared';
import { applyAudienceChange, type AudienceChange } from './audience-store';

/** Communication's audiences: who may read the attachments of an announcement or of a channel's messages. */
export const attachmentAudienceConsumers = [
  defineConsumer({
    name: 'attachment-audiences',
    topics: ['communication'],
    types: ['communication.attachments.audience'],
    async handle(ctx) {
      const { event } = ctx;
      const o = event.data.object as Partial<AudienceChange> | null;
      if (!o || typeof o.audienceId !== 'string' || typeof o.version !== 'number' || !Array.isArray(o.attachmentIds) || !(o.employeeIds === null || Array.isArray(o.employeeIds))) {
        throw new Error(`${event.type} ${event.id}: data.object is not an audience change (audienceId, version, employeeIds, attachmentIds)`);
      }
      await applyAudienceChange(ctx, { audienceId: o.audienceId, version: o.version, employeeIds: o.employeeIds, attachmentIds: o.attachmentIds });
    },
  }),
];
