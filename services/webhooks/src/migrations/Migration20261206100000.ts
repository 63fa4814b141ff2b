import { Migration, trackChangesSql } from '@bop/shared';

/**
 * webhooks: deliveries track their changes (`change_xid`; shared/src/changes.ts), so
 * `GET /webhook-endpoints/{id}/deliveries` pages commit-safe with `updatedSince`. Only an update of what
 * the list shows moves a row's change (status, attempts, next attempt, updatedAt, replay): a worker's
 * lease (claimed, renewed) does not, and such updates stay HOT-eligible. The index leads with the
 * endpoint (the list is always one endpoint's). Rows of before keep their data and take this
 * migration's transaction id as their change (a fast default: the table is not rewritten).
 */
export class Migration20261206100000 extends Migration {
  override async up(): Promise<void> {
    const changed = ['status', 'attempts', 'next_attempt_at', 'updated_at', 'replay_id'].map((c) => `old."${c}" is distinct from new."${c}"`).join(' or ');
    for (const sql of trackChangesSql('webhooks', 'deliveries', ['id'], { when: changed, indexPrefix: ['endpoint_id'] })) this.addSql(sql);
  }
}
