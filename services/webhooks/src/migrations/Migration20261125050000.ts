import { Migration } from '@bop/shared';

/**
 * The queue lock moves to the platform's one advisory-key scheme (`hashtextextended(key, 0)`, key
 * `webhooks.queue`), as the code that shares it (deliveries/store lockQueuesShared, the worker's
 * recordResults) now takes it. Only the lock line of deliveries_enqueue changes: the function's
 * definition is edited in place, so the rest stays as Migration20261121100000 wrote it.
 */
export class Migration20261125050000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`do $$
      declare
        def text := pg_get_functiondef('"webhooks"."deliveries_enqueue"()'::regprocedure);
        old_lock constant text := 'hashtext(''webhooks:queue'')';
      begin
        if position(old_lock in def) = 0 then
          raise exception 'webhooks.deliveries_enqueue does not take %', old_lock;
        end if;
        execute replace(def, old_lock, 'hashtextextended(''webhooks.queue'', 0)');
      end $$`);
  }
}
