import { createLogger, createPostgresBus } from '@bop/shared';
import { freshDatabase, type TestDatabase } from '../../test/harness';
import { busContract } from './bus-contract';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

busContract('postgres', () => createPostgresBus({ connectionString: db.url, log: createLogger('bus', 'silent'), pollMs: 100 }));
