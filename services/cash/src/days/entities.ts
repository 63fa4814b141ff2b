/** MikroORM entities of the days area (scaffold: filled as the area lands). */
export const businessDaysEntities = [] as const;
