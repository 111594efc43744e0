/**
 * sign_raw_payload (V2), sign_raw_payloads and sign_transaction (V2). Policy: PRIVATE_KEY / SIGN
 * (wallet accounts sign under the same resource, as in Turnkey's policy language). A payload the
 * key cannot sign (wrong hash function for the curve, malformed transaction) fails the activity
 * with the reason.
 */
import { SigningError, signRawPayload as signPayload, signTransaction as signTx } from '@latchkey/crypto';
import {
  AppError,
  ZSignRawPayloadIntentSchema,
  ZSignRawPayloadsIntentSchema,
  ZSignTransactionIntentSchema,
  type TSignature,
  type TSignRawPayloadIntent,
  type TSignRawPayloadsIntent,
  type TSignRawPayloadsResult,
  type TSignTransactionIntent,
  type TSignTransactionResult,
} from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { withSigningKey } from './resolve-signer.js';

/** SigningError (a payload this key cannot sign) → a FAILED activity naming the reason. */
function signingFailure<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof SigningError) throw new AppError('BAD_REQUEST', e.message);
    throw e;
  }
}

export const signRawPayload: TActivityDefinition<TSignRawPayloadIntent, TSignature> = {
  path: 'sign_raw_payload',
  versions: [{ type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', intentKey: 'signRawPayloadIntentV2', resultKey: 'signRawPayloadResult' }],
  resource: 'PRIVATE_KEY',
  action: 'SIGN',
  readOnly: true,
  params: ZSignRawPayloadIntentSchema,
  handle: (ctx, p) =>
    withSigningKey(ctx, p.signWith, (key) =>
      signingFailure(() => signPayload({ curve: key.curve, privateKey: key.privateKey, payload: p.payload, encoding: p.encoding, hashFunction: p.hashFunction })),
    ),
};

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
