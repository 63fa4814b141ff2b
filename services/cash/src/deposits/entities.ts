import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

type ActorRef = { type: string; id: string | null };

/** A cash deposit taken to the bank, and the bank credit it was matched to (match-store.ts). */
export const DepositEntity = defineEntity({
  name: 'DepositEntity',
  tableName: 'deposits',
  properties: {
    id: p.string().primary(),
    locationId: p.string(),
    businessDays: p.json<string[]>(),
    amount: p.decimal('string'),
    depositedAt: p.datetime(),
    reference: p.string().nullable(),
    bankAccount: p.string().nullable(),
    note: p.string().nullable(),
    matchStatus: p.string(),
    bankTransactionId: p.string().nullable(),
    matchedBy: p.string().nullable(),
    matchedAt: p.datetime().nullable(),
    recordedBy: p.json<ActorRef>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type DepositEntity = InferEntity<typeof DepositEntity>;

/** A bank transaction, stored by the kit's batch upsert (store.ts); a credit may be matched to a deposit. */
export const BankTransactionEntity = defineEntity({
  name: 'BankTransactionEntity',
  tableName: 'bank_transactions',
  properties: {
    id: p.string().primary(),
    source: p.string(),
    externalId: p.string(),
    contentHash: p.string(),
    version: p.integer(),
    accountId: p.string().nullable(),
    bookedOn: p.string().columnType('date'),
    amount: p.decimal('string'),
    reference: p.string().nullable(),
    description: p.string().nullable(),
    locationId: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type BankTransactionEntity = InferEntity<typeof BankTransactionEntity>;

/** MikroORM entities of the deposits area. */
export const depositsEntities = [DepositEntity, BankTransactionEntity] as const;
