/**
 * Signing: `sign_raw_payload` (`signRawPayload`) and `sign_transaction` (`signTransaction`) with a
 * key the caller has opened from the vault, plus the encoders they are built on.
 */
export { SigningError, type TSigningErrorReason } from './signing-error.js';
export { payloadDigest, signRawPayload, type TRawPayload, type TSignRawPayloadInput } from './raw-payload.js';
export { hashTypedData, parseTypedData, type TTypedData, type TTypedDataField } from './eip712.js';
export { decodeRlp, decodeRlpUint, encodeRlp, encodeRlpUint, type TRlpItem } from './rlp.js';
export { signEthereumTransaction } from './ethereum-transaction.js';
export { signSolanaTransaction } from './solana-transaction.js';
export { signBitcoinPsbt } from './bitcoin-psbt.js';
export { signTransaction, type TSignTransactionInput } from './sign-transaction.js';
export { SOLANA_ADDRESS_TABLE_LOOKUP, ethereumTransactionFields, solanaTransactionFields, type TEthereumTransactionFields, type TEthereumTransactionType, type TSolanaAccountRef, type TSolanaAddressTableLookup, type TSolanaInstruction, type TSolanaLookupReference, type TSolanaSplTransfer, type TSolanaTransactionFields, type TSolanaTransfer } from './transaction-fields.js';
