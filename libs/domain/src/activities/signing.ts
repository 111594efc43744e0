/** Wire schemas of sign_raw_payload (V2), sign_raw_payloads and sign_transaction (V2). */
import { z } from 'zod';
import { defineActivityWire } from '../activity.js';

export const PAYLOAD_ENCODINGS = ['PAYLOAD_ENCODING_HEXADECIMAL', 'PAYLOAD_ENCODING_TEXT_UTF8', 'PAYLOAD_ENCODING_EIP712', 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION'] as const;
export const ZPayloadEncodingSchema = z.enum(PAYLOAD_ENCODINGS);
export type TPayloadEncoding = z.infer<typeof ZPayloadEncodingSchema>;

export const HASH_FUNCTIONS = ['HASH_FUNCTION_NO_OP', 'HASH_FUNCTION_SHA256', 'HASH_FUNCTION_KECCAK256', 'HASH_FUNCTION_NOT_APPLICABLE'] as const;
export const ZHashFunctionSchema = z.enum(HASH_FUNCTIONS);
export type THashFunction = z.infer<typeof ZHashFunctionSchema>;

export const TRANSACTION_TYPES = ['TRANSACTION_TYPE_ETHEREUM', 'TRANSACTION_TYPE_SOLANA', 'TRANSACTION_TYPE_TRON', 'TRANSACTION_TYPE_BITCOIN', 'TRANSACTION_TYPE_TEMPO'] as const;
export const ZTransactionTypeSchema = z.enum(TRANSACTION_TYPES);
export type TTransactionType = z.infer<typeof ZTransactionTypeSchema>;

/** A wallet account address, a private key id, or a private key address. */
const signWith = z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters');
const payload = z.string().max(1_000_000, 'must be at most 1,000,000 characters');

export const ZSignRawPayloadIntentSchema = z.object({ signWith, payload, encoding: ZPayloadEncodingSchema, hashFunction: ZHashFunctionSchema });
export type TSignRawPayloadIntent = z.output<typeof ZSignRawPayloadIntentSchema>;
export const ZSignatureSchema = z.object({ r: z.string(), s: z.string(), v: z.string() });
export type TSignature = z.infer<typeof ZSignatureSchema>;

export const ZSignRawPayloadsIntentSchema = z.object({
  signWith,
  payloads: z.array(payload).min(1, 'must hold at least one payload').max(100, 'must hold at most 100 payloads'),
  encoding: ZPayloadEncodingSchema,
  hashFunction: ZHashFunctionSchema,
});
export type TSignRawPayloadsIntent = z.output<typeof ZSignRawPayloadsIntentSchema>;
export const ZSignRawPayloadsResultSchema = z.object({ signatures: z.array(ZSignatureSchema) });
export type TSignRawPayloadsResult = z.infer<typeof ZSignRawPayloadsResultSchema>;

export const ZSignTransactionIntentSchema = z.object({
  signWith,
  unsignedTransaction: z.string().min(1, 'must not be empty').max(2_000_000, 'is too large'),
  type: ZTransactionTypeSchema,
});
export type TSignTransactionIntent = z.output<typeof ZSignTransactionIntentSchema>;
export const ZSignTransactionResultSchema = z.object({ signedTransaction: z.string() });
export type TSignTransactionResult = z.infer<typeof ZSignTransactionResultSchema>;

/** Wire names of `sign_raw_payload`: every accepted `type`, with its intent and result keys. */
export const SIGN_RAW_PAYLOAD_ACTIVITY = defineActivityWire('sign_raw_payload', [{ type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', intentKey: 'signRawPayloadIntentV2', resultKey: 'signRawPayloadResult' }]);

/** Wire names of `sign_raw_payloads`: every accepted `type`, with its intent and result keys. */
export const SIGN_RAW_PAYLOADS_ACTIVITY = defineActivityWire('sign_raw_payloads', [{ type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS', intentKey: 'signRawPayloadsIntent', resultKey: 'signRawPayloadsResult' }]);

/** Wire names of `sign_transaction`: every accepted `type`, with its intent and result keys. */
export const SIGN_TRANSACTION_ACTIVITY = defineActivityWire('sign_transaction', [{ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', intentKey: 'signTransactionIntentV2', resultKey: 'signTransactionResult' }]);
