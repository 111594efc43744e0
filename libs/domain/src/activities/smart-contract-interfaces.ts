/**
 * Wire schemas of smart contract interfaces (issue 16 §5): create_smart_contract_interface,
 * delete_smart_contract_interface and the get / list queries, with the names of
 * `@turnkey/sdk-types` 1.10's `v1…SmartContractInterface…` types. An interface is an Ethereum
 * ABI or a Solana Anchor IDL (JSON text, at most 400 kB), keyed by the contract address / program
 * id it describes. Its content is parsed by `@latchkey/crypto` (the one reader the policy engine
 * decodes calls with); here only the envelope is checked.
 */
import { z } from 'zod';
import { defineActivityWire } from '../activity.js';
import { ZIdentifierSchema, type TTimestamp } from '../common.js';

/** Turnkey's limit ("Limited to 400kb"), counted in UTF-8 bytes of the JSON text. */
export const MAX_SMART_CONTRACT_INTERFACE_BYTES = 400 * 1024;

export const SMART_CONTRACT_INTERFACE_TYPES = ['SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM', 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA'] as const;
export type TSmartContractInterfaceType = (typeof SMART_CONTRACT_INTERFACE_TYPES)[number];

const ETHEREUM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A base58 ed25519 public key: 32 bytes are 32 to 44 base58 characters. */
const SOLANA_PROGRAM_ID = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** UTF-8 length without encoding (a lone surrogate counts as the 3 bytes of U+FFFD). */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * The stored form of a contract address: Ethereum addresses lowercase (they match `eth.tx.to`,
 * which is lowercase, whatever checksum casing the caller used); Solana program ids as written
 * (base58 is case-sensitive).
 */
export function canonicalContractAddress(type: TSmartContractInterfaceType, address: string): string {
  return type === 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM' ? address.toLowerCase() : address;
}

/** `v1CreateSmartContractInterfaceIntent`. */
export const ZCreateSmartContractInterfaceIntentSchema = z
  .object({
    smartContractAddress: z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters'),
    smartContractInterface: z
      .string()
      .min(1, 'must not be empty')
      .refine((s) => utf8Length(s) <= MAX_SMART_CONTRACT_INTERFACE_BYTES, `must be at most ${MAX_SMART_CONTRACT_INTERFACE_BYTES} bytes (400 kB); minify the JSON or upload only the functions policies need`),
    type: z.enum(SMART_CONTRACT_INTERFACE_TYPES, { error: 'must be SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM or SMART_CONTRACT_INTERFACE_TYPE_SOLANA' }),
    label: z.string().trim().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
    notes: z.string().max(4096, 'must be at most 4096 characters').optional(),
  })
  .superRefine((p, ctx) => {
    if (p.type === 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM' && !ETHEREUM_ADDRESS.test(p.smartContractAddress)) {
      ctx.addIssue({ code: 'custom', path: ['smartContractAddress'], message: 'must be an Ethereum address (0x and 40 hex digits) for SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM' });
    }
    if (p.type === 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA' && !SOLANA_PROGRAM_ID.test(p.smartContractAddress)) {
      ctx.addIssue({ code: 'custom', path: ['smartContractAddress'], message: 'must be a base58 program id for SMART_CONTRACT_INTERFACE_TYPE_SOLANA' });
    }
  });
export type TCreateSmartContractInterfaceIntent = z.output<typeof ZCreateSmartContractInterfaceIntentSchema>;

/** `v1DeleteSmartContractInterfaceIntent`. */
export const ZDeleteSmartContractInterfaceIntentSchema = z.object({ smartContractInterfaceId: ZIdentifierSchema });
export type TDeleteSmartContractInterfaceIntent = z.output<typeof ZDeleteSmartContractInterfaceIntentSchema>;

/** `v1GetSmartContractInterfaceRequest`. */
export const ZGetSmartContractInterfaceRequestSchema = z.object({ organizationId: ZIdentifierSchema, smartContractInterfaceId: ZIdentifierSchema });
export type TGetSmartContractInterfaceRequest = z.output<typeof ZGetSmartContractInterfaceRequestSchema>;

/** `v1GetSmartContractInterfacesRequest` (route `list_smart_contract_interfaces`). */
export const ZGetSmartContractInterfacesRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TGetSmartContractInterfacesRequest = z.output<typeof ZGetSmartContractInterfacesRequestSchema>;

/** `externaldatav1SmartContractInterface`. */
export interface TSmartContractInterfaceWire {
  organizationId: string;
  smartContractInterfaceId: string;
  smartContractAddress: string;
  smartContractInterface: string;
  type: string;
  label: string;
  notes: string;
  createdAt: TTimestamp;
  updatedAt: TTimestamp;
}

/** Wire names of `create_smart_contract_interface` (`v1CreateSmartContractInterfaceResult`). */
export const CREATE_SMART_CONTRACT_INTERFACE_ACTIVITY = defineActivityWire('create_smart_contract_interface', [
  { type: 'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE', intentKey: 'createSmartContractInterfaceIntent', resultKey: 'createSmartContractInterfaceResult' },
]);

/** Wire names of `delete_smart_contract_interface` (`v1DeleteSmartContractInterfaceResult`). */
export const DELETE_SMART_CONTRACT_INTERFACE_ACTIVITY = defineActivityWire('delete_smart_contract_interface', [
  { type: 'ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE', intentKey: 'deleteSmartContractInterfaceIntent', resultKey: 'deleteSmartContractInterfaceResult' },
]);
