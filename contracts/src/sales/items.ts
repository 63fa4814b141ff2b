import { z } from '../zod';

/** Unmapped POS items (GET /sales/unmapped-items) and mapping them to items (POST /sales/unmapped-items:map) */
export const salesItemOperations = {};
