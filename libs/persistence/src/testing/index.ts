/** Test helpers of @latchkey/persistence (imported by tests only). */
export { createTestDatabase, stopTestPostgres, makeTestDataDir, type TTestDatabase } from './test-database.js';
