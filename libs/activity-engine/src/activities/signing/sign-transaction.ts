/**
 * sign_raw_payload (V2), sign_raw_payloads and sign_transaction (V2). Policy: PRIVATE_KEY / SIGN
 * (wallet accounts sign under the same resource, as in Turnkey's policy language). A payload the
 * key cannot sign (wrong hash function for the curve, malformed transaction) fails the activity
 * with the reason.
 */
import { signTransaction as signTx } from '@latchkey/crypto';
import { ZSignTransactionIntentSchema, type TSignTransactionIntent, type TSignTransactionResult } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { withSigningKey } from '../../keys/resolve-signer.js';
import { signingFailure } from './sign-shared.js';

export const signTransaction: TActivityDefinition<TSignTransactionIntent, TSignTransactionResult> = {
  path: 'sign_transaction',
  versions: [{ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', intentKey: 'signTransactionIntentV2', resultKey: 'signTransactionResult' }],
  resource: 'PRIVATE_KEY',
  action: 'SIGN',
  readOnly: true,
  params: ZSignTransactionIntentSchema,
  handle: (ctx, p) =>
    withSigningKey(ctx, p.signWith, (key) => ({
      signedTransaction: signingFailure(() =>
        signTx({ type: p.type, curve: key.curve, privateKey: key.privateKey, publicKey: key.publicKey, unsignedTransaction: p.unsignedTransaction }),
      ),
    })),
};
