/** `latchkey migrate`: migrations and first-start steps without starting the apps (`migrate.ts`). */
import { parseConfig } from '@latchkey/domain';
import { defineCommand } from '../cli-command.js';
import { migrateCommand } from './migrate.js';

export const migrate = defineCommand<Record<string, never>>({
  name: 'migrate',
  summary: 'apply migrations and first-start steps, then exit',
  details: 'Prints {"applied": [migration names], "rootOrganizationId", "rootOrganizationCreated"} as JSON. For deployments that migrate before rolling out the apps.',
  run: (_options, { env }) => migrateCommand(parseConfig(env)),
});
