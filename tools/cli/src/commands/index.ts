/**
 * Every CLI command, in the order `latchkey --help` lists them. A new command is one file
 * `<verb-noun>.command.ts` beside these and one line here; a new group (the first word of
 * `org create`) also gets its one-line summary in COMMAND_GROUPS.
 */
import type { TCliCommand } from '../cli-command.js';
import { adminLink } from './admin-link.command.js';
import { auditVerify } from './audit-verify.command.js';
import { keygen } from './keygen.command.js';
import { migrate } from './migrate.command.js';
import { orgCreate } from './org-create.command.js';
import { proxyEnable, proxySet } from './proxy.command.js';
import { start } from './start.command.js';
import { webhooksRedeliver } from './webhooks-redeliver.command.js';
import { webhooksRotateKey } from './webhooks-rotate-key.command.js';
import { gasRelayer } from './gas-relayer.command.js';

/** `never`: each command takes its own option type; the program hands each what commander parsed for it. */
export const COMMANDS: readonly TCliCommand<never>[] = [start, migrate, keygen, orgCreate, proxyEnable, proxySet, webhooksRotateKey, webhooksRedeliver, adminLink, auditVerify, gasRelayer];

/** Groups of commands: `latchkey <group> --help` shows this line and the group's commands. */
export const COMMAND_GROUPS: Readonly<Record<string, string>> = {
  org: 'manage root organizations',
  proxy: "the auth proxy's configuration (through the running public API)",
  webhooks: 'webhook signing keys and redelivery',
  admin: 'the admin console',
  audit: 'the tamper-evident activity log',
  gas: 'gas sponsorship (the relayer that pays for sponsored transactions)',
};
