/**
 * One vitest configuration for every project: workspace libraries are resolved to their
 * TypeScript sources (the `@latchkey/source` export condition), so tests never need a build.
 */
import { defaultServerConditions, type UserConfig } from 'vite';
import type { ViteUserConfig } from 'vitest/config';

const conditions = ['@latchkey/source', ...defaultServerConditions];

export function sharedTestConfig(root: string): ViteUserConfig {
  const resolve: UserConfig['resolve'] = { conditions };
  return {
    root,
    resolve,
    ssr: { resolve: { conditions } },
    test: {
      include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
      environment: 'node',
      testTimeout: 60_000,
      hookTimeout: 120_000,
      // Real servers and databases: keep files sequential on a 2-core machine.
      fileParallelism: false,
    },
  };
}
