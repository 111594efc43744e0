/**
 * sign_raw_payload (V2), sign_raw_payloads and sign_transaction (V2). A payload the key cannot
 * sign (wrong hash function for the curve, malformed transaction) fails the activity with the
 * reason.
 */
import { signRawPayload as signPayload } from '@latchkey/crypto';
import { ZSignRawPayloadsIntentSchema, type TSignRawPayloadsIntent, type TSignRawPayloadsResult, SIGN_RAW_PAYLOADS_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { withSigningKey } from '../../keys/resolve-signer.js';
import { signingFailure } from './sign-shared.js';
import { exposeParams } from '@latchkey/policy';
import { signerFacts } from '../../engine/policy-context.js';

export const signRawPayloads: TActivityDefinition<TSignRawPayloadsIntent, TSignRawPayloadsResult> = {
  ...SIGN_RAW_PAYLOADS_ACTIVITY,
  readOnly: true,
  params: ZSignRawPayloadsIntentSchema,
  policyParams: exposeParams({ hashFunction: 'hash_function', encoding: 'encoding' }),
  policyFacts: (db, org, p) => signerFacts(db, org, p.signWith),
  handle: (ctx, p) =>
    withSigningKey(ctx, p.signWith, (key) => ({
      signatures: p.payloads.map((payload) =>
        signingFailure(() => signPayload({ curve: key.curve, privateKey: key.privateKey, payload, encoding: p.encoding, hashFunction: p.hashFunction })),
      ),
    })),
};
