/**
 * `create_wallet` (`ACTIVITY_TYPE_CREATE_WALLET`): creates an HD wallet from a fresh mnemonic and
 * derives the requested accounts. Wire names: intent `createWalletIntent`, result `createWalletResult`.
 */
import { z } from 'zod';
import { createActivityRequestSchema } from '../activity.js';
import { MAX_IDENTIFIER_LENGTH, ZIdentifierSchema } from '../common.js';
import {
  DEFAULT_MNEMONIC_LENGTH,
  ZAddressFormatSchema,
  ZCurveSchema,
  ZMnemonicLengthSchema,
  ZPathFormatSchema,
} from '../enums.js';
import { defineActivityWire } from '../activity.js';

/** Every `type` version accepted on `/public/v1/submit/create_wallet`. */
export const CREATE_WALLET_TYPES = ['ACTIVITY_TYPE_CREATE_WALLET'] as const;
export const CREATE_WALLET_INTENT_KEY = 'createWalletIntent';
export const CREATE_WALLET_RESULT_KEY = 'createWalletResult';

export const MAX_WALLET_ACCOUNTS = 100;

/** One account to derive (swagger `v1WalletAccountParams`), shared with `create_wallet_accounts`. */
export const ZWalletAccountParamsSchema = z.object({
  curve: ZCurveSchema,
  pathFormat: ZPathFormatSchema,
  path: z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
  addressFormat: ZAddressFormatSchema,
  name: z.string().max(MAX_IDENTIFIER_LENGTH, `must be at most ${MAX_IDENTIFIER_LENGTH} characters`).optional(),
});
export type TWalletAccountParams = z.infer<typeof ZWalletAccountParamsSchema>;

export const ZCreateWalletIntentSchema = z.object({
  walletName: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_IDENTIFIER_LENGTH, `must be at most ${MAX_IDENTIFIER_LENGTH} characters`),
  /** May be empty: a wallet with no accounts yet. */
  accounts: z
    .array(ZWalletAccountParamsSchema)
    .max(MAX_WALLET_ACCOUNTS, `must hold at most ${MAX_WALLET_ACCOUNTS} accounts`),
  // The wire type is a plain int32, so the input is any number and the output the narrowed length.
  mnemonicLength: z.number().pipe(ZMnemonicLengthSchema).default(DEFAULT_MNEMONIC_LENGTH),
});
export type TCreateWalletIntent = z.output<typeof ZCreateWalletIntentSchema>;
export type TCreateWalletIntentInput = z.input<typeof ZCreateWalletIntentSchema>;

export const ZCreateWalletResultSchema = z.object({
  walletId: ZIdentifierSchema,
  /** One address per requested account, in request order. */
  addresses: z.array(z.string()),
});
export type TCreateWalletResult = z.infer<typeof ZCreateWalletResultSchema>;

/** The full request body of `/public/v1/submit/create_wallet`. */
export const ZCreateWalletRequestSchema = createActivityRequestSchema(CREATE_WALLET_TYPES, ZCreateWalletIntentSchema);
export type TCreateWalletRequest = z.output<typeof ZCreateWalletRequestSchema>;

/** Wire names of `create_wallet`: every accepted `type`, with its intent and result keys. */
export const CREATE_WALLET_ACTIVITY = defineActivityWire('create_wallet', [{ type: CREATE_WALLET_TYPES[0], intentKey: CREATE_WALLET_INTENT_KEY, resultKey: CREATE_WALLET_RESULT_KEY }]);
