import { z } from '../zod';

/** Sales summaries: POST /sales-summaries (ingested), GET /sales-summaries, GET /sales-summaries/{id} */
export const salesSummaryOperations = {};
