import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const PayRate = defineEntity({
  name: 'PayRate',
  tableName: 'pay_rates',
  properties: {
    id: p.string().primary(),
    employeeId: p.string(),
    type: p.string().$type<'hourly' | 'salary'>(),
    amount: p.decimal('string'),
    position: p.string().nullable(),
    effectiveDate: p.string().columnType('date'),
    createdAt: p.datetime(),
    createdBy: p.json<{ type: string; id: string | null }>(),
  },
});
export type PayRate = InferEntity<typeof PayRate>;
