/**
 * sign_raw_payload (V2), sign_raw_payloads and sign_transaction (V2). A payload the key cannot
 * sign (wrong hash function for the curve, malformed transaction) fails the activity with the
 * reason.
 */
import { signTransaction as signTx } from '@latchkey/crypto';
import { ZSignTransactionIntentSchema, type TSignTransactionIntent, type TSignTransactionResult, SIGN_TRANSACTION_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { withSigningKey } from '../../keys/resolve-signer.js';
import { signingFailure } from './sign-shared.js';
import { exposeParams } from '@latchkey/policy';
import { signerFacts } from '../../engine/policy-context.js';
import { contractInterfaceFacts } from '../../engine/contract-interfaces.js';

export const signTransaction: TActivityDefinition<TSignTransactionIntent, TSignTransactionResult> = {
  ...SIGN_TRANSACTION_ACTIVITY,
  readOnly: true,
  params: ZSignTransactionIntentSchema,
  policyParams: exposeParams({ type: 'type' }),
  // The interfaces of the called contracts are looked up (in parallel) only when a condition reads a decoded call.
  policyFacts: async (db, org, p, needs) => {
    const transaction = { type: p.type, unsignedTransaction: p.unsignedTransaction };
    const [signer, interfaces] = await Promise.all([signerFacts(db, org, p.signWith), needs.contractCalls ? contractInterfaceFacts(db, org, transaction) : {}]);
    return { ...signer, ...interfaces, transaction };
  },
  handle: (ctx, p) =>
    withSigningKey(ctx, p.signWith, (key) => ({
      signedTransaction: signingFailure(() =>
        signTx({ type: p.type, curve: key.curve, privateKey: key.privateKey, publicKey: key.publicKey, unsignedTransaction: p.unsignedTransaction }),
      ),
    })),
};
