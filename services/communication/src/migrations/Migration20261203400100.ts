import { Migration } from '@bop/shared';

/** communication: the `announcement_overdue` notification kind (the author told who is overdue). */
export class Migration20261203400100 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "communication"."notifications" drop constraint if exists "notifications_kind_check"`);
    this.addSql(`alter table "communication"."notifications" add constraint "notifications_kind_check" check ("kind" in ('schedule_published','shift_offered','swap_requested','swap_decided','time_off_decided','corrective_action_assigned','work_order_assigned','announcement_published','announcement_reminder','announcement_overdue'))`);
  }
}
