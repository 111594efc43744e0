/**
 * Wire schemas of sending Ethereum transactions (issue 15 §2): eth_send_transaction (V1 and V2,
 * `v1EthSendTransactionIntent` / `…IntentV2` of `@turnkey/sdk-types`) and the
 * get_send_transaction_status query. The V1 form (`to`, `value`, `data` at the top) is one call
 * (`sendTransactionCalls`), so the engine has one shape to handle.
 */
import { z } from 'zod';
import { defineActivityWire } from '../activity.js';
import { ZIdentifierSchema } from '../common.js';

/** Calls one V2 request may carry (sdk-types: "between 1 and 50 entries"). */
export const MAX_SEND_TRANSACTION_CALLS = 50;

const DECIMAL_UINT = /^(0|[1-9][0-9]{0,77})$/;

/** A non-negative integer in decimal, as Turnkey's intents write wei, gas and nonces (at most 256 bits). */
const uintString = (what: string) =>
  z
    .string()
    .trim()
    .regex(DECIMAL_UINT, `must be ${what} as a non-negative decimal integer string`)
    // zod runs a refinement even after the regex failed: only a decimal string reaches BigInt (a
    // throw there was a 500 on `"value": "x"`, found by the chaos fuzz).
    .refine((s) => !DECIMAL_UINT.test(s) || BigInt(s) < 2n ** 256n, 'must be below 2^256');

const address = z
  .string()
  .trim()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address');

const callData = z
  .string()
  .trim()
  .max(262_144, 'must be at most 128 KiB of hex')
  .regex(/^(0x)?([0-9a-fA-F]{2})*$/, 'must be hex call data (0x-prefixed, whole bytes)')
  .transform((s) => (s.startsWith('0x') || s.startsWith('0X') ? `0x${s.slice(2)}` : `0x${s}`));
// Numbers stay decimal strings after parsing: the parsed intent is what the activity stores and echoes.

/** `eip155:<chainId>`; whether the chain is configured is checked by the engine (LATCHKEY_EVM_RPC_URLS). */
export const ZCaip2Eip155Schema = z
  .string()
  .trim()
  .regex(/^eip155:[1-9][0-9]{0,18}$/, 'must be an eip155:<chainId> CAIP-2 id, e.g. eip155:1');

/** `v1EthCallParams`. */
export const ZEthCallParamsSchema = z.object({ to: address, value: uintString('wei').optional(), data: callData.optional() });
export type TEthCallParams = z.output<typeof ZEthCallParamsSchema>;

const common = {
  from: z.string().trim().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
  caip2: ZCaip2Eip155Schema,
  sponsor: z.boolean().optional(),
  nonce: uintString('the nonce').optional(),
  gasLimit: uintString('gas').optional(),
  maxFeePerGas: uintString('wei per gas').optional(),
  maxPriorityFeePerGas: uintString('wei per gas').optional(),
  deadline: uintString('a Unix time in seconds').optional(),
  gasStationNonce: uintString('the gas station nonce').optional(),
};

/**
 * `v1EthSendTransactionIntentV2` (`calls`), or `v1EthSendTransactionIntent` (`to`, `value`,
 * `data`), read as one call. Exactly one of the two forms.
 */
export const ZEthSendTransactionIntentSchema = z
  .object({
    ...common,
    calls: z.array(ZEthCallParamsSchema).min(1, 'must have at least one call').max(MAX_SEND_TRANSACTION_CALLS, `must have at most ${MAX_SEND_TRANSACTION_CALLS} calls`).optional(),
    to: address.optional(),
    value: uintString('wei').optional(),
    data: callData.optional(),
  })
  .superRefine((p, ctx) => {
    if (p.calls === undefined && p.to === undefined) ctx.addIssue({ code: 'custom', path: ['calls'], message: 'is required (or, in the V1 form, to)' });
    if (p.calls !== undefined && (p.to !== undefined || p.value !== undefined || p.data !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be inside calls[] when calls is given (to, value and data at the top are the V1 form)' });
    }
  });
export type TEthSendTransactionIntent = z.output<typeof ZEthSendTransactionIntentSchema>;

/** The calls of either form (the V1 form is one call); the intent itself is stored as sent. */
export function sendTransactionCalls(p: TEthSendTransactionIntent): TEthCallParams[] {
  return p.calls ?? [{ to: p.to!, ...(p.value !== undefined ? { value: p.value } : {}), ...(p.data !== undefined ? { data: p.data } : {}) }];
}

export interface TEthSendTransactionResult extends Record<string, unknown> {
  sendTransactionStatusId: string;
}

/** Wire names of `eth_send_transaction`: V2 (sdk-server's `ethSendTransaction`) and V1. */
export const ETH_SEND_TRANSACTION_ACTIVITY = defineActivityWire('eth_send_transaction', [
  { type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2', intentKey: 'ethSendTransactionIntentV2', resultKey: 'ethSendTransactionResultV2' },
  { type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION', intentKey: 'ethSendTransactionIntent', resultKey: 'ethSendTransactionResult' },
]);

/** `v1GetSendTransactionStatusRequest`. */
export const ZGetSendTransactionStatusRequestSchema = z.object({ organizationId: ZIdentifierSchema, sendTransactionStatusId: ZIdentifierSchema });
export type TGetSendTransactionStatusRequest = z.output<typeof ZGetSendTransactionStatusRequestSchema>;

/**
 * A send's status: BROADCASTING (signed and handed to the node), then INCLUDED (mined, succeeded)
 * or FAILED (refused by the node, reverted in simulation, or mined and reverted).
 */
export const SEND_TRANSACTION_STATUSES = ['BROADCASTING', 'INCLUDED', 'FAILED'] as const;
export type TSendTransactionStatus = (typeof SEND_TRANSACTION_STATUSES)[number];

/** `v1RevertChainEntry`, as far as Latchkey decodes a revert (Error(string), Panic(uint256), a custom selector). */
export interface TRevertChainEntryWire {
  address?: string;
  errorType: 'native' | 'custom' | 'unknown';
  displayMessage: string;
}

/** `v1GetSendTransactionStatusResponse`. */
export interface TGetSendTransactionStatusResponse {
  txStatus: TSendTransactionStatus;
  eth?: { txHash?: string };
  txError?: string;
  error?: { message?: string; revertChain?: TRevertChainEntryWire[] };
}

/** The event type of a status change (docs/WEBHOOKS.md). */
export const SEND_TRANSACTION_STATUS_EVENT_TYPE = 'SEND_TRANSACTION_STATUS_UPDATES';

/**
 * `v1EthUndelegate7702Intent`: clear `from`'s EIP-7702 delegation on `caip2`. `from` is an
 * address (as for eth_send_transaction, not a private key id); the numbers are as there.
 */
export const ZEthUndelegate7702IntentSchema = z.object({
  from: address,
  caip2: ZCaip2Eip155Schema,
  nonce: uintString('the nonce').optional(),
  gasLimit: uintString('gas').optional(),
  maxFeePerGas: uintString('wei per gas').optional(),
  maxPriorityFeePerGas: uintString('wei per gas').optional(),
});
export type TEthUndelegate7702Intent = z.output<typeof ZEthUndelegate7702IntentSchema>;

export interface TEthUndelegate7702Result extends Record<string, unknown> {
  sendTransactionStatusId: string;
}

/**
 * Wire names of `eth_undelegate_7702`: sdk-server 8.2's `ethUndelegate7702` sends
 * `ACTIVITY_TYPE_ETH_UNDELEGATE7702`, the swagger (and @turnkey/http's types) name
 * `ACTIVITY_TYPE_ETH_UNDELEGATE_7702`; one activity under both, as Turnkey's clients disagree.
 */
export const ETH_UNDELEGATE_7702_ACTIVITY = defineActivityWire('eth_undelegate_7702', [
  { type: 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702', intentKey: 'ethUndelegate7702Intent', resultKey: 'ethUndelegate7702Result' },
  { type: 'ACTIVITY_TYPE_ETH_UNDELEGATE7702', intentKey: 'ethUndelegate7702Intent', resultKey: 'ethUndelegate7702Result' },
]);

/** `v1GetNoncesRequest`: which of the two nonces of `address` on `caip2` to read. */
export const ZGetNoncesRequestSchema = z.object({
  organizationId: ZIdentifierSchema,
  address,
  caip2: ZCaip2Eip155Schema,
  nonce: z.boolean().optional(),
  gasStationNonce: z.boolean().optional(),
});
export type TGetNoncesRequest = z.output<typeof ZGetNoncesRequestSchema>;

/** `v1GetNoncesResponse`: each nonce asked for, uint64 as a decimal string. */
export interface TGetNoncesResponse {
  nonce?: string;
  gasStationNonce?: string;
}
