import { z } from '../zod';
import { ListQuery } from '../common';

export const Feature = z
  .object({
    key: z.string().openapi({ example: 'inventory.waste' }),
    label: z.string(),
    parent: z.string().nullable(),
    enabled: z.boolean().openapi({ description: 'this switch itself' }),
    effective: z.boolean().openapi({ description: 'this switch and every ancestor are on' }),
    planned: z.boolean(),
  })
  .openapi('Feature');

export const FeatureKeyParam = z.object({ key: z.string().min(1).max(100) });
export const FeatureListQuery = ListQuery;
