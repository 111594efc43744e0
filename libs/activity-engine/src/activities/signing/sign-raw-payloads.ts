/**
 * sign_raw_payload (V2), sign_raw_payloads and sign_transaction (V2). Policy: PRIVATE_KEY / SIGN
 * (wallet accounts sign under the same resource, as in Turnkey's policy language). A payload the
 * key cannot sign (wrong hash function for the curve, malformed transaction) fails the activity
 * with the reason.
 */
import { signRawPayload as signPayload } from '@latchkey/crypto';
import { ZSignRawPayloadsIntentSchema, type TSignRawPayloadsIntent, type TSignRawPayloadsResult } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { withSigningKey } from '../../keys/resolve-signer.js';
import { signingFailure } from './sign-shared.js';

export const signRawPayloads: TActivityDefinition<TSignRawPayloadsIntent, TSignRawPayloadsResult> = {
  path: 'sign_raw_payloads',
  versions: [{ type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS', intentKey: 'signRawPayloadsIntent', resultKey: 'signRawPayloadsResult' }],
  resource: 'PRIVATE_KEY',
  action: 'SIGN',
  readOnly: true,
  params: ZSignRawPayloadsIntentSchema,
  handle: (ctx, p) =>
    withSigningKey(ctx, p.signWith, (key) => ({
      signatures: p.payloads.map((payload) =>
        signingFailure(() => signPayload({ curve: key.curve, privateKey: key.privateKey, payload, encoding: p.encoding, hashFunction: p.hashFunction })),
      ),
    })),
};
