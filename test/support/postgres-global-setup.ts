import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres-server.ts';

/** One PostgreSQL for the postgres project's run; each test file makes its own database on it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
