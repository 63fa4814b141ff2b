/**
 * Which public event types each mutating catalogue row (POST, PUT, PATCH, DELETE) records (issue 41 item 3):
 * `events`, the public types of the event catalogue (events.ts, not planned) the operation records in its
 * transaction or, for batch and ingestion rows, when its background processing applies the change
 * (endpoints supplement, "Event to operation mapping", rule 11); or `exempt`, why a row records none.
 * A type is listed when the operation may record it (most are conditional: "something changed").
 *
 * test/change-events.test.ts holds every mutating row to this table; the jest run's recorder
 * (shared/src/emit-recorder.ts) fails the run when a route was seen committing a public type its row
 * does not list.
 */

/** Why a mutating row records no public event. The list is short on purpose: a change of business data is none of these. */
export type EmitExemption =
  /** the call changes no resource an integrator reads: signing in (a session), a report export run (a file of a read) */
  | 'not_a_change'
  /**
   * administration of access to the platform itself (users, roles, invitations, keys, second factors,
   * passwords, company security settings, feature switches): the spec's catalogue has no area for it, and
   * credentials travel through no webhook; recorded as internal (audit) events
   */
  | 'access_admin'
  /**
   * an integration's or webhook endpoint's own set-up and delivery controls (register, config, keys,
   * pause, logs, heartbeat, endpoints, retries): the plumbing the events travel through, not data they describe
   */
  | 'integration_setup'
  /** a person's own reading state (notifications marked read, their notification preferences): no one else's data changes */
  | 'own_inbox';

export const emitExemptions: Record<EmitExemption, string> = {
  not_a_change: 'changes no resource an integrator reads (signing in, a report export run)',
  access_admin: 'access administration (users, roles, invitations, keys, second factors, passwords, security settings, feature switches): no catalogue area; internal audit events only',
  integration_setup: 'the set-up and delivery controls of integrations and webhook endpoints: the plumbing events travel through',
  own_inbox: 'a person\'s own reading state: notifications marked read, notification preferences',
};

export type EmitsRow = { events: string[] } | { exempt: EmitExemption };

const ev = (...events: string[]): EmitsRow => ({ events });
const exempt = (why: EmitExemption): EmitsRow => ({ exempt: why });

/** Keyed `"<METHOD> <path>"` exactly as in endpoints.ts (`endpointKey`). */
export const emits: Record<string, EmitsRow> = {
  // ---- identity: access administration
  'POST /auth/sign-in': exempt('not_a_change'),
  'POST /auth/sign-in/mfa': exempt('not_a_change'),
  'POST /auth/api-keys': exempt('access_admin'),
  'DELETE /auth/api-keys/{id}': exempt('access_admin'),
  'POST /auth/mfa/enrollment': exempt('access_admin'),
  'POST /auth/mfa/enrollment:confirm': exempt('access_admin'),
  'POST /auth/invitations:accept': exempt('access_admin'),
  'POST /auth/password': exempt('access_admin'),
  'PATCH /company-settings': exempt('access_admin'),
  'PATCH /users/{id}': exempt('access_admin'),
  'DELETE /users/{id}': exempt('access_admin'),
  'POST /users/{id}:reset-mfa': exempt('access_admin'),
  'PUT /users/{id}/assignments': exempt('access_admin'),
  'POST /invitations': exempt('access_admin'),
  'DELETE /invitations/{id}': exempt('access_admin'),
  'POST /roles': exempt('access_admin'),
  'PATCH /roles/{id}': exempt('access_admin'),
  'DELETE /roles/{id}': exempt('access_admin'),
  'POST /features/{key}:enable': exempt('access_admin'),
  'POST /features/{key}:disable': exempt('access_admin'),

  // ---- integrations and webhooks: the plumbing
  'POST /integrations/self/logs': exempt('integration_setup'),
  'POST /integrations/self/heartbeat': exempt('integration_setup'),
  'POST /integrations': exempt('integration_setup'),
  'DELETE /integrations/{id}': exempt('integration_setup'),
  'PUT /integrations/{id}/manifest': exempt('integration_setup'),
  'PATCH /integrations/{id}/config': exempt('integration_setup'),
  'POST /integrations/{id}:pause': exempt('integration_setup'),
  'POST /integrations/{id}:resume': exempt('integration_setup'),
  'POST /integrations/{id}:rotate-key': exempt('integration_setup'),
  'POST /webhook-endpoints': exempt('integration_setup'),
  'PATCH /webhook-endpoints/{id}': exempt('integration_setup'),
  'DELETE /webhook-endpoints/{id}': exempt('integration_setup'),
  'POST /webhook-endpoints/{id}:rotate-secret': exempt('integration_setup'),
  'POST /webhook-endpoints/{id}:ping': ev('webhook.ping'),
  'POST /webhook-endpoints/{id}:retry-failed': exempt('integration_setup'),
  'POST /webhook-endpoints/{id}:replay': exempt('integration_setup'),
  'POST /webhook-deliveries/{id}:retry': exempt('integration_setup'),

  // ---- organization
  'POST /locations': ev('location.created'),
  'PUT /locations/external/{externalId}': ev('location.created', 'location.updated'),
  'PATCH /locations/{id}': ev('location.updated'),
  'DELETE /locations/{id}': ev('location.archived'),
  'POST /org-units': ev('org_unit.created'),
  'PATCH /org-units/{id}': ev('org_unit.updated'),
  'DELETE /org-units/{id}': ev('org_unit.archived'),
  'POST /departments': ev('department.created'),
  'PATCH /departments/{id}': ev('department.updated'),
  'DELETE /departments/{id}': ev('department.archived'),

  // ---- attachments
  'POST /attachments': ev('attachment.uploaded'),
  'DELETE /attachments/{id}': ev('attachment.deleted'),

  // ---- people
  'POST /employees': ev('employee.created'),
  'PUT /employees/external/{externalId}': ev('employee.created', 'employee.updated', 'employee.transferred', 'employee.terminated', 'pay_rate.changed'),
  'PATCH /employees/{id}': ev('employee.updated'),
  'DELETE /employees/{id}': ev('employee.archived'),
  'POST /employees/{id}:transfer': ev('employee.transferred', 'employee.updated'),
  'POST /employees/{id}:terminate': ev('employee.terminated', 'shift.changed', 'open_shift.posted'),
  'POST /employees/{id}:rehire': ev('employee.updated'),
  'POST /employees/{id}/pay-rates': ev('pay_rate.changed'),
  'PUT /employees/{id}/emergency-contacts': ev('employee.updated'),
  'PATCH /me/profile': ev('employee.updated'),
  'POST /employee-documents': ev('document.created'),
  'PATCH /employee-documents/{id}': ev('document.updated'),
  'DELETE /employee-documents/{id}': ev('document.archived'),
  'POST /certifications': ev('certification.created'),
  'PATCH /certifications/{id}': ev('certification.updated'),
  'DELETE /certifications/{id}': ev('certification.archived'),

  // ---- time
  'POST /time/punches:batch': ev('punch.received', 'punch.corrected', 'alert.triggered'),
  'POST /time/punches/{id}:correct': ev('punch.corrected'),
  'POST /me/punch-corrections': ev('punch_correction.requested'),
  'POST /me/punch-corrections/{id}:cancel': ev('punch_correction.cancelled'),
  'POST /time/punch-corrections/{id}:approve': ev('punch.corrected', 'punch.received', 'punch_correction.approved'),
  'POST /time/punch-corrections/{id}:reject': ev('punch_correction.rejected'),
  'PUT /time/break-rules': ev('break_rules.updated'),
  'PUT /time/overtime-rules': ev('overtime_rules.updated'),
  'POST /time/timesheets/{id}:approve': ev('timesheet.approved'),
  'POST /time/timesheets/{id}:reject': ev('timesheet.rejected'),
  'POST /time/pay-periods/{id}:lock': ev('pay_period.locked'),
  'POST /time/pay-periods/{id}:unlock': ev('pay_period.unlocked', 'punch.received', 'punch.corrected'),
  'POST /time-off/types': ev('time_off_type.created'),
  'POST /time-off/policies': ev('time_off_policy.created'),
  'PATCH /time-off/policies/{id}': ev('time_off_policy.updated'),
  'POST /time-off/balances:adjust': ev('time_off.balance_adjusted'),
  'POST /me/time-off/requests': ev('time_off.requested'),
  'POST /me/time-off/requests/{id}:cancel': ev('time_off.cancelled'),
  'POST /time-off/requests': ev('time_off.requested'),
  'POST /time-off/requests/{id}:approve': ev('time_off.approved'),
  'POST /time-off/requests/{id}:reject': ev('time_off.rejected'),

  // ---- scheduling
  'POST /availability': ev('availability.created'),
  'PATCH /availability/{id}': ev('availability.updated'),
  'DELETE /availability/{id}': ev('availability.archived'),
  'POST /me/availability': ev('availability.created'),
  'DELETE /me/availability/{id}': ev('availability.archived'),
  'POST /demand-drivers': ev('forecast.updated'),
  'POST /forecasts/adjustments': ev('forecast.updated'),
  'POST /schedules:publish': ev('schedule.published', 'open_shift.posted', 'shift.changed'),
  'POST /schedules:generate': ev('shift.changed'),
  'POST /shift-swaps': ev('shift.swap_requested'),
  'POST /me/shift-swaps': ev('shift.swap_requested'),
  'POST /shift-swaps/{id}:approve': ev('shift.swap_approved', 'shift.changed'),
  'POST /shift-swaps/{id}:reject': ev('shift.swap_rejected'),
  'POST /shifts': ev('shift.changed', 'open_shift.posted'),
  'PUT /shifts/external/{externalId}': ev('shift.changed'),
  'PATCH /shifts/{id}': ev('shift.changed', 'open_shift.posted'),
  'DELETE /shifts/{id}': ev('shift.changed'),
  'POST /shifts/{id}:claim': ev('shift.changed'),
  'POST /me/shifts/{id}:claim': ev('shift.changed'),
  'POST /staffing-rules': ev('staffing_rule.created'),
  'PATCH /staffing-rules/{id}': ev('staffing_rule.updated'),
  'DELETE /staffing-rules/{id}': ev('staffing_rule.archived'),
  'PUT /special-days/{date}': ev('special_day.created', 'special_day.updated'),
  'DELETE /special-days/{date}': ev('special_day.deleted'),

  // ---- cash
  'POST /cash/counts': ev('cash.count_completed', 'cash.over_short_exceeded', 'alert.triggered'),
  'POST /cash/deposits': ev('cash.deposit_recorded', 'cash.deposit_mismatch'),
  'POST /cash/bank-transactions': ev('cash.deposit_mismatch'),
  'POST /cash/settlements': ev('cash.settlement_mismatch'),
  'POST /cash/tenders': ev('cash.settlement_mismatch'),
  'POST /cash/business-days/{locationId}/{date}:close': ev('cash.business_day_closed', 'cash.over_short_exceeded'),
  'POST /cash/business-days/{locationId}/{date}:reopen': ev('cash.business_day_reopened', 'cash.settlement_mismatch'),
  'PUT /cash/over-short-thresholds': ev('cash.over_short_thresholds_updated'),

  // ---- inventory
  'POST /items': ev('item.created'),
  'PUT /items/external/{externalId}': ev('item.created', 'item.updated'),
  'PATCH /items/{id}': ev('item.updated'),
  'DELETE /items/{id}': ev('item.updated'),
  'POST /inventory/adjustments': ev('stock.level_changed', 'stock.below_reorder_point'),
  'POST /inventory/waste': ev('waste.recorded', 'stock.level_changed', 'stock.below_reorder_point'),
  'POST /stock-counts': ev('stock_count.created'),
  'POST /stock-counts/{id}:cancel': ev('stock_count.cancelled'),
  'POST /stock-counts/{id}:post': ev('stock_count.posted', 'stock.level_changed', 'stock.below_reorder_point'),
  'POST /stock-levels:configure': ev('stock.below_reorder_point'),
  'POST /transfers': ev('transfer.sent', 'stock.level_changed', 'stock.below_reorder_point'),
  'POST /transfers/{id}:receive': ev('transfer.received', 'transfer.discrepancy', 'stock.level_changed', 'stock.below_reorder_point'),
  'PUT /usage-recipes/{itemId}': ev('usage_recipe.replaced', 'usage_recipe.removed'),
  'POST /item-categories': ev('item_category.created'),
  'PATCH /item-categories/{id}': ev('item_category.updated', 'item_category.archived'),
  'POST /storage-areas': ev('storage_area.created'),
  'PATCH /storage-areas/{id}': ev('storage_area.updated', 'storage_area.archived'),
  'POST /units-of-measure': ev('unit_of_measure.created'),

  // ---- purchasing
  'POST /purchase-orders': ev('purchase_order.created'),
  'POST /purchase-orders/{id}:approve': ev('purchase_order.approved'),
  'POST /purchase-orders/{id}:send': ev('purchase_order.sent'),
  'POST /purchase-orders/{id}:receive': ev('purchase_order.received', 'stock.level_changed', 'stock.below_reorder_point'),
  'POST /purchase-orders/{id}:cancel': ev('purchase_order.cancelled'),
  'POST /supplier-invoices': ev('supplier_invoice.mismatch'),
  'POST /supplier-invoices/{id}:approve': ev('supplier_invoice.approved'),
  'POST /supplier-invoices/{id}:dispute': ev('supplier_invoice.disputed'),
  'POST /suppliers': ev('supplier.created'),
  'PUT /suppliers/external/{externalId}': ev('supplier.created', 'supplier.updated', 'supplier.archived'),
  'PATCH /suppliers/{id}': ev('supplier.updated', 'supplier.archived'),
  'DELETE /suppliers/{id}': ev('supplier.archived'),
  'PUT /suppliers/{id}/catalog': ev('supplier.catalog_replaced'),

  // ---- sales
  'POST /sales/transactions:batch': ev('sales.unmapped_item', 'stock.level_changed', 'stock.below_reorder_point', 'alert.triggered'),
  'POST /sales-summaries': ev('alert.triggered'),
  'PUT /sales-orders/external/{externalId}': ev('sales_order.created', 'sales_order.cancelled', 'sales.unmapped_item'),
  'POST /sales/unmapped-items:map': ev('sales.unmapped_item_mapped'),
  'POST /sales-orders/{id}:reserve': ev('stock.level_changed', 'stock.below_reorder_point'),
  'POST /sales-orders/{id}:ship': ev('sales_order.shipped', 'stock.level_changed', 'stock.below_reorder_point'),
  'POST /sales-orders/{id}:cancel': ev('sales_order.cancelled', 'stock.level_changed', 'stock.below_reorder_point'),
  'POST /sales/review-items/{id}:accept': ev('sales_review_item.accepted'),
  'POST /sales/review-items/{id}:reject': ev('sales_review_item.rejected'),
  'POST /customers': ev('customer.created'),
  'PUT /customers/external/{externalId}': ev('customer.created', 'customer.updated', 'customer.archived'),
  'PATCH /customers/{id}': ev('customer.updated', 'customer.archived'),
  'POST /customer-invoices': ev('invoice.created'),
  'POST /customer-invoices/{id}:issue': ev('invoice.issued'),
  'POST /customer-invoices/{id}:pay': ev('invoice.paid'),
  'POST /customer-invoices/{id}:void': ev('invoice.voided'),

  // ---- operations
  'POST /forms': ev('form.created'),
  'PUT /forms/external/{externalId}': ev('form.created', 'form.updated', 'form.archived'),
  'PATCH /forms/{id}': ev('form.updated', 'form.archived'),
  'DELETE /forms/{id}': ev('form.archived'),
  'POST /form-submissions': ev('form.submitted', 'form.answer_failed', 'corrective_action.created', 'audit.completed'),
  'POST /corrective-actions': ev('corrective_action.created'),
  'PATCH /corrective-actions/{id}': ev('corrective_action.updated'),
  'POST /corrective-actions/{id}:close': ev('corrective_action.closed'),
  'POST /sensors': ev('sensor.created'),
  'PUT /sensors/external/{externalId}': ev('sensor.created', 'sensor.updated', 'sensor.archived', 'sensor.out_of_range'),
  'PATCH /sensors/{id}': ev('sensor.updated', 'sensor.archived', 'sensor.out_of_range'),
  'DELETE /sensors/{id}': ev('sensor.archived'),
  'POST /sensor-readings': ev('sensor.out_of_range'),

  // ---- equipment
  'POST /assets': ev('asset.created'),
  'PATCH /assets/{id}': ev('asset.updated'),
  'DELETE /assets/{id}': ev('asset.archived'),
  'POST /assets/{id}/meter-readings': ev('maintenance.due', 'work_order.created'),
  'POST /maintenance-plans': ev('maintenance.due', 'work_order.created'),
  'PATCH /maintenance-plans/{id}': ev('maintenance.due', 'work_order.created'),
  'POST /work-orders': ev('work_order.created'),
  'PATCH /work-orders/{id}': ev('work_order.updated'),
  'POST /work-orders/{id}:start': ev('work_order.updated'),
  'POST /work-orders/{id}:close': ev('work_order.closed'),
  'POST /work-orders/{id}:cancel': ev('work_order.closed'),

  // ---- communication
  'POST /announcements': ev('announcement.created'),
  'PATCH /announcements/{id}': ev('announcement.updated'),
  'DELETE /announcements/{id}': ev('announcement.archived'),
  'POST /announcements/{id}:publish': ev('announcement.published'),
  'POST /me/announcements/{id}:acknowledge': ev('announcement.acknowledged'),
  'POST /recognitions': ev('recognition.posted'),
  'POST /channels': ev('channel.created'),
  'POST /channels/{id}/messages': ev('message.posted'),
  'POST /me/notifications:mark-read': exempt('own_inbox'),
  'PUT /me/notification-preferences': exempt('own_inbox'),
  'POST /display-metrics': ev('display_metric.updated'),
  'POST /display-screens': ev('display_screen.paired'),
  'DELETE /display-screens/{id}': ev('display_screen.unpaired'),
  'PUT /display-screens/{id}/config': ev('display_screen.configured'),

  // ---- insights
  'POST /alert-rules': ev('alert.triggered', 'alert_rule.created'),
  'PATCH /alert-rules/{id}': ev('alert.triggered', 'alert_rule.updated'),
  'DELETE /alert-rules/{id}': ev('alert_rule.archived'),
  'POST /report-exports': exempt('not_a_change'),
  'POST /report-schedules': ev('report_schedule.created'),
  'DELETE /report-schedules/{id}': ev('report_schedule.stopped'),
};
