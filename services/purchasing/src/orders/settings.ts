import type { z } from 'zod';
import type { CompanySettings as CompanySettingsSchema } from '@bop/contracts';
import { callCommand, type ServiceClient } from '@bop/shared';

/**
 * The company settings purchasing decides by — the purchase-order approval threshold and the
 * invoice-match tolerances — read from identity when a decision needs them (`GET
 * /internal/company-settings`), so a change applies to the very next order or invoice.
 */
type CompanySettings = z.output<typeof CompanySettingsSchema>;

export type PurchasingSettings = Pick<CompanySettings, 'purchaseOrderApprovalThreshold' | 'invoiceMatchTolerances'>;

export async function companySettings(services: ServiceClient, requestId?: string): Promise<PurchasingSettings> {
  const s = await callCommand<CompanySettings>(services, 'identity', 'GET', '/internal/company-settings', undefined, { what: 'read the company settings', ok: [200], requestId });
  return { purchaseOrderApprovalThreshold: s.purchaseOrderApprovalThreshold, invoiceMatchTolerances: s.invoiceMatchTolerances };
}
