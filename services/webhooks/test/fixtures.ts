import type { TestService } from '@bop/test-support';

export async function newEndpoint(t: TestService, url: string, events: string[] = ['*'], description?: string) {
  const res = await t.call('POST', '/webhook-endpoints', { body: { url, events, description } });
  if (res.status !== 201) throw new Error(`newEndpoint failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; secret: string; version: number; [k: string]: unknown };
}

/** The topic an event of the test's types travels on (as the owning services publish them). */
const TOPIC: Record<string, string> = { location: 'organization', employee: 'people', sales_order: 'sales', invoice: 'sales', punch: 'time' };
export const topicOf = (type: string) => TOPIC[type.split('.')[0]] ?? 'organization';
