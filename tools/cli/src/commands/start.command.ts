/** `latchkey start` (what `npm start` runs); the launcher itself is `start.ts`. */
import { parseConfig } from '@latchkey/domain';
import { defineCommand } from '../cli-command.js';
import { startCommand } from './start.js';

export const start = defineCommand<Record<string, never>>({
  name: 'start',
  summary: 'run the platform (embedded PostgreSQL unless DATABASE_URL is set)',
  details: 'Migrates, runs the first-start steps, then runs the four apps until SIGINT/SIGTERM. Configuration comes from the environment (LATCHKEY_*, DATABASE_URL).',
  run: (_options, { env }) => startCommand(parseConfig(env)),
});
