// review: entities of this area (MikroORM defineEntity); add them to ../entities/index.ts' list via the export below
export const reviewEntities = [] as const;
