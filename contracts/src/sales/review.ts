import { z } from '../zod';

/** The review queue of records held because their business day is closed (spec: ingestion rule 7) */
export const salesReviewOperations = {};
