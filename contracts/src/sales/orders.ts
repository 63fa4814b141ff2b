import { z } from '../zod';

/** Online sales orders: PUT/GET /sales-orders/external/{externalId}, GET /sales-orders, GET /sales-orders/{id}, POST /sales-orders/{id}:cancel */
export const salesOrderOperations = {};
