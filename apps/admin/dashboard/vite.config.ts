/**
 * The dashboard's build: `vite build --config apps/admin/dashboard/vite.config.ts` writes
 * apps/admin/dist/dashboard, which the admin app serves at `/`. Workspace libraries resolve to
 * their sources (the `@latchkey/source` condition), as in tests.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  resolve: { conditions: ['@latchkey/source', 'browser', 'module', 'import', 'default'] },
  build: {
    outDir: '../dist/dashboard',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1200,
  },
});
