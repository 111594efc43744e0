/** `latchkey org create`: another root organization, straight into the database (`org-create.ts`). */
import { parseConfig } from '@latchkey/domain';
import { defineCommand } from '../cli-command.js';
import { orgCreateCommand } from './org-create.js';

interface TOrgCreateOptions {
  name: string;
  userName: string;
  apiPublicKey: string;
  userEmail?: string;
}

export const orgCreate = defineCommand<TOrgCreateOptions>({
  name: 'org create',
  summary: 'create another root organization and print its ids as JSON',
  details: 'Its one root user holds the given API public key (see `latchkey keygen`) and is its root quorum. Prints {"organizationId", "userId", "apiKeyId"}.',
  options: [
    { flags: '--name <name>', description: 'the organization name', required: true },
    { flags: '--user-name <name>', description: 'the name of its root user', required: true },
    { flags: '--api-public-key <hex>', description: "the root user's API key: compressed P-256, 66 hex characters", required: true },
    { flags: '--user-email <email>', description: "the root user's email" },
  ],
  run: (o, { env }) =>
    orgCreateCommand(parseConfig(env), {
      name: o.name,
      'user-name': o.userName,
      'api-public-key': o.apiPublicKey,
      ...(o.userEmail ? { 'user-email': o.userEmail } : {}),
    }),
});
