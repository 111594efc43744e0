// Prisma CLI configuration. Only `prisma generate` is used (see tools/prisma-generate.mjs);
// migrations are plain SQL in prisma/migrations applied by libs/persistence.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
