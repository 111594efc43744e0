import { defineConfig } from 'vitest/config';
import { sharedTestConfig } from '../../vitest.shared.js';

// End-to-end files, each on a platform of its own or on the run's shared one (test/e2e/shared-platform.ts):
// two files at a time (see vitest.shared.ts).
export default defineConfig(sharedTestConfig(import.meta.dirname, { fileWorkers: 2, globalSetup: ['test/e2e/shared-platform.global-setup.ts'] }));
