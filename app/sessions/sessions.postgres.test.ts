import { describe, inject } from 'vitest';
import { openPostgres } from '../database/postgres.ts';
import { createTestDatabase } from '../database/test-databases.ts';
import { sessionRowsContract } from './session-rows-contract.ts';
import { signOutContract } from './sign-out-contract.ts';

/** The PostgreSQL the project's global setup started (its URL typed in guestbook/store.postgres.test.ts). */
const server = inject('postgresUrl');

describe('the sessions table on PostgreSQL', () => {
  sessionRowsContract(async () => openPostgres({ url: await createTestDatabase(server), poolSize: 4, timeoutMs: 500 }));
});

describe("the app's sessions on PostgreSQL, two instances sharing one database", () => {
  signOutContract(async () => ({ DATABASE_URL: await createTestDatabase(server) }));
});
