import { defineConfig } from 'vitest/config';
import { sharedTestConfig } from '../../vitest.shared.js';

// Its tests make databases with createTestDatabase(): one embedded cluster for the run (vitest.test-postgres.ts).
export default defineConfig(sharedTestConfig(import.meta.dirname, { testPostgres: true }));
