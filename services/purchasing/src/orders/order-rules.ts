import Decimal from 'decimal.js';
import type { PurchaseOrderStatus } from '@bop/contracts';

/**
 * The Purchase order state machine (supplement: Purchase order states) as pure rules: which action
 * each state allows, and the 409 detail when it does not. `:send` of a draft also needs the total
 * within the company's approval threshold (checked by the caller with `needsApproval`).
 */
export type OrderAction = 'approve' | 'send' | 'receive' | 'cancel';

const allowed: Record<OrderAction, PurchaseOrderStatus[]> = {
  approve: ['draft'],
  send: ['draft', 'approved'],
  receive: ['sent', 'partially_received'],
  cancel: ['draft', 'approved', 'sent'],
};

const why: Record<PurchaseOrderStatus, string> = {
  draft: 'is a draft',
  approved: 'is approved',
  sent: 'was sent',
  partially_received: 'is partially received',
  received: 'was received (final)',
  cancelled: 'was cancelled (final)',
};

const hint: Partial<Record<`${OrderAction}:${PurchaseOrderStatus}`, string>> = {
  'approve:approved': 'It is approved already.',
  'approve:sent': 'A sent order needs no approval.',
  'approve:partially_received': 'A sent order needs no approval.',
  'send:sent': 'It was sent already.',
  'send:partially_received': 'It was sent already.',
  'receive:draft': 'Send it to the supplier first (:send).',
  'receive:approved': 'Send it to the supplier first (:send).',
  'cancel:partially_received': 'Something was received; close it with a final receipt (:receive with "final": true) instead.',
};

/** null when `action` is allowed in `status`, else the 409 detail. */
export function transitionRefusal(action: OrderAction, number: string, status: PurchaseOrderStatus): string | null {
  if (allowed[action].includes(status)) return null;
  return [`Purchase order ${number} ${why[status]}; it cannot be ${past[action]}.`, hint[`${action}:${status}`]].filter(Boolean).join(' ');
}

const past: Record<OrderAction, string> = { approve: 'approved', send: 'sent', receive: 'received', cancel: 'cancelled' };

/** A draft above the threshold must be approved before it is sent (equal to the threshold is within it). */
export const needsApproval = (total: Decimal.Value, threshold: Decimal.Value): boolean => new Decimal(total).greaterThan(threshold);
