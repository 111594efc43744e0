/**
 * sign_raw_payload (V2), sign_raw_payloads and sign_transaction (V2). A payload the key cannot
 * sign (wrong hash function for the curve, malformed transaction) fails the activity with the
 * reason.
 */
import { signRawPayload as signPayload } from '@latchkey/crypto';
import { ZSignRawPayloadIntentSchema, type TSignature, type TSignRawPayloadIntent, SIGN_RAW_PAYLOAD_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { withSigningKey } from '../../keys/resolve-signer.js';
import { signingFailure } from './sign-shared.js';
import { exposeParams } from '@latchkey/policy';
import { signerFacts } from '../../engine/policy-context.js';

export const signRawPayload: TActivityDefinition<TSignRawPayloadIntent, TSignature> = {
  ...SIGN_RAW_PAYLOAD_ACTIVITY,
  readOnly: true,
  params: ZSignRawPayloadIntentSchema,
  policyParams: exposeParams({ hashFunction: 'hash_function', encoding: 'encoding' }),
  policyFacts: (db, org, p) => signerFacts(db, org, p.signWith),
  handle: (ctx, p) =>
    withSigningKey(ctx, p.signWith, (key) =>
      signingFailure(() => signPayload({ curve: key.curve, privateKey: key.privateKey, payload: p.payload, encoding: p.encoding, hashFunction: p.hashFunction })),
    ),
};
