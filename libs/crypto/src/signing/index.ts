/**
 * Signing, the chain-neutral part: `sign_raw_payload` (`signRawPayload`) and `sign_transaction`
 * (`signTransaction`, which dispatches to the one signer per chain under `../chains/`) with a key the
 * caller has opened from the vault, and the error both throw.
 */
export { SigningError, type TSigningErrorReason } from './signing-error.js';
export { payloadDigest, signRawPayload, type TRawPayload, type TSignRawPayloadInput } from './raw-payload.js';
export { signTransaction, type TSignTransactionInput } from './sign-transaction.js';
