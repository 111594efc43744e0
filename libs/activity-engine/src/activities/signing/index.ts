/** Signing with a wallet account or a private key. One file per kind; this list is the folder's whole registration. */
import { signRawPayload } from './sign-raw-payload.js';
import { signRawPayloads } from './sign-raw-payloads.js';
import { signTransaction } from './sign-transaction.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const SIGNING_ACTIVITIES: readonly TAnyActivityDefinition[] = [
  signRawPayload,
  signRawPayloads,
  signTransaction,
];
