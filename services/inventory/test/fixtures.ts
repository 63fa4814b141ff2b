/**
 * The inventory tests' stack: organization (locations reach inventory's replica through the bus) and
 * inventory. Items, units, ledger postings and levels come from `@bop/test-support` (purchasing's tests
 * use them too).
 */
import { organizationService } from '@svc/organization';
import { serviceSql, standardLocations, startTestServices, type InventoryTarget, type ServiceSql } from '@bop/test-support';
import { inventoryService } from '../src';

export interface InventoryStack extends InventoryTarget {
  /** SQL on the inventory service's connection */
  sql: ServiceSql;
}

/** Organization + inventory (+ `more` services) on a fresh database, with two locations replicated into inventory. */
export async function startInventoryStack(more: Parameters<typeof startTestServices>[0] = [], env: Record<string, string> = {}): Promise<InventoryStack> {
  const stack = await startTestServices([organizationService, inventoryService, ...more], env);
  return { stack, sql: serviceSql(stack.services.inventory), locations: await standardLocations(stack, ['inventory']) };
}
