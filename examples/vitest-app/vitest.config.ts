import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Starting Latchkey takes a few seconds (much less once its data-folder template is cached).
    hookTimeout: 120_000,
    testTimeout: 60_000,
  },
});
