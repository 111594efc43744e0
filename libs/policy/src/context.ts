/**
 * The evaluation contexts of the policy language (Turnkey's `features/policies/language.mdx`,
 * "Keywords" and "Struct"), and pure builders for their parts.
 *
 * Field names are the language's (snake_case). What a request does not have is ABSENT, never
 * `null` or a placeholder: reading `eth.tx` on a raw-payload signature, or `private_key` on a
 * wallet signature, is then a MissingField error, which makes that policy not apply — Turnkey's
 * documented behaviour.
 */
import {
  SigningError,
  decodeAnchorInstruction,
  decodeEthereumContractCall,
  ethereumTransactionFields,
  solanaTransactionFields,
  type TAnchorIdl,
  type TEthereumAbi,
  type TEthereumTransactionType,
} from '@latchkey/crypto';
import { activityKind, activityPolicyEntry } from './activity-table.js';
import type { PolicyTimestamp } from './timestamp.js';

// ---------------------------------------------------------------------------------------------
// Consensus: who approved
// ---------------------------------------------------------------------------------------------

export interface TPolicyUser {
  id: string;
  tags: string[];
  email: string;
  alias?: string;
}

export interface TPolicyCredential {
  /** The API key's or authenticator's id. */
  id: string;
  user_id: string;
  /** `CREDENTIAL_TYPE_…`. */
  type: string;
  /** A passkey's credential id; absent for API keys. */
  credential_id?: string;
  public_key: string;
}

export interface TConsensusContext {
  approvers: TPolicyUser[];
  credentials: TPolicyCredential[];
}

// ---------------------------------------------------------------------------------------------
// Condition: what is asked
// ---------------------------------------------------------------------------------------------

export interface TPolicyActivity {
  type: string;
  kind: string;
  /** Absent for a type outside the docs' table (root-quorum activities). */
  resource?: string;
  action?: string;
  /** The few request fields Turnkey exposes for the type (see `activityParams`); `{}` for the rest. */
  params: Record<string, unknown>;
}

export interface TPolicyWallet {
  id: string;
  imported: boolean;
  exported: boolean;
  label: string;
}

export interface TPolicyPrivateKey {
  id: string;
  tags: string[];
  imported: boolean;
  exported: boolean;
  label: string;
}

export interface TPolicyWalletAccount {
  address: string;
}

/** `eth.tx`: addresses lowercase `0x` hex, amounts unsigned integers. */
export interface TEthTxContext {
  /** The signer's address when the caller knows it; an unsigned transaction does not carry it. */
  from?: string;
  /** `''` for a contract creation. */
  to: string;
  /** Calldata, `0x…` lowercase. */
  data: string;
  value: bigint;
  gas: bigint;
  /** Legacy/type 1 gas price; for types 2–4 it mirrors `max_fee_per_gas` (Turnkey's docs). */
  gas_price?: bigint;
  /** Absent on a pre-EIP-155 legacy transaction. */
  chain_id?: bigint;
  nonce: bigint;
  max_fee_per_gas?: bigint;
  max_priority_fee_per_gas?: bigint;
  max_fee_per_blob_gas?: bigint;
  type: TEthereumTransactionType;
  /**
   * The decoded call, present only when the organization uploaded an ABI for `to` and `data` is a
   * canonical call of one of its functions (`contractCallFields`): else a policy reading them errors.
   */
  function_name?: string;
  /** The 4-byte selector, lowercase `0x` hex (`'0xa9059cbb'`). */
  function_signature?: string;
  /** Arguments by ABI name: `eth.tx.contract_call_args['dst']`. */
  contract_call_args?: ReadonlyMap<string, unknown>;
}

export interface TSolanaAccountContext {
  account_key: string;
  signer: boolean;
  writable: boolean;
}

export interface TSolanaLookupReferenceContext {
  address_table_key: string;
  index: number;
  writable: boolean;
}

export interface TSolanaInstructionContext {
  program_key: string;
  accounts: TSolanaAccountContext[];
  /** Lowercase hex without a prefix. */
  instruction_data_hex: string;
  address_table_lookups: TSolanaLookupReferenceContext[];
  /** Present only when the organization uploaded an IDL for `program_key` and the data decodes with it. */
  parsed_instruction_data?: TSolanaParsedInstructionContext;
}

/** An instruction decoded with an uploaded Anchor IDL (Turnkey's `parsed_instruction_data`). */
export interface TSolanaParsedInstructionContext {
  instruction_name: string;
  /** Lowercase hex, no prefix. */
  discriminator: string;
  /** The instruction's accounts by IDL name. */
  named_accounts: ReadonlyMap<string, string>;
  /** Arguments by IDL name: `program_call_args['amount']`. */
  program_call_args: ReadonlyMap<string, unknown>;
}

export interface TSolanaTxContext {
  static_account_keys: string[];
  /** Alias of `static_account_keys`. */
  account_keys: string[];
  top_level_program_keys: string[];
  /** Alias of `top_level_program_keys`. */
  program_keys: string[];
  top_level_instructions: TSolanaInstructionContext[];
  /** Alias of `top_level_instructions`. */
  instructions: TSolanaInstructionContext[];
  /** Native SOL transfers (System Program `Transfer` / `TransferWithSeed`), amounts in lamports. */
  transfers: { from: string; to: string; amount: bigint }[];
  spl_transfers: { from: string; to: string; amount: bigint; owner: string; signers: string[]; token_mint: string }[];
  recent_blockhash: string;
  address_table_lookups: { address_table_key: string; writable_indexes: number[]; readonly_indexes: number[] }[];
  address_table_lookup_references: TSolanaLookupReferenceContext[];
}

export interface TConditionContext {
  activity: TPolicyActivity;
  /** The wallet a signature or export targets. */
  wallet?: TPolicyWallet;
  /** The wallets a multi-wallet request targets. */
  wallets?: TPolicyWallet[];
  private_key?: TPolicyPrivateKey;
  wallet_account?: TPolicyWalletAccount;
  eth?: { tx: TEthTxContext };
  solana?: { tx: TSolanaTxContext };
  /** A `Date` or a `PolicyTimestamp` (`timestampOf`): both are the language's timestamp. */
  time: { now: Date | PolicyTimestamp };
}

// ---------------------------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------------------------

/**
 * `eth.tx` of an unsigned Ethereum transaction (hex, `0x` optional).
 * @param from the signing account's address, when known (lowercased here)
 * @throws {SigningError} for a transaction `sign_transaction` would refuse
 */
export function ethTxContext(unsignedHex: string, options: { from?: string } = {}): TEthTxContext {
  const f = ethereumTransactionFields(unsignedHex);
  const tx: TEthTxContext = { to: f.to, data: f.data, value: f.value, gas: f.gasLimit, nonce: f.nonce, type: f.type };
  if (options.from !== undefined) tx.from = options.from.toLowerCase();
  if (f.gasPrice !== undefined) tx.gas_price = f.gasPrice;
  if (f.chainId !== undefined) tx.chain_id = f.chainId;
  if (f.maxFeePerGas !== undefined) tx.max_fee_per_gas = f.maxFeePerGas;
  if (f.maxPriorityFeePerGas !== undefined) tx.max_priority_fee_per_gas = f.maxPriorityFeePerGas;
  if (f.maxFeePerBlobGas !== undefined) tx.max_fee_per_blob_gas = f.maxFeePerBlobGas;
  return tx;
}

/**
 * `solana.tx` of a serialized Solana transaction or message (hex, `0x` optional).
 * @throws {SigningError} for bytes `sign_transaction` would refuse
 */
export function solanaTxContext(unsignedHex: string): TSolanaTxContext {
  const f = solanaTransactionFields(unsignedHex);
  const ref = (r: { addressTableKey: string; index: number; writable: boolean }): TSolanaLookupReferenceContext => ({ address_table_key: r.addressTableKey, index: r.index, writable: r.writable });
  const instructions = f.instructions.map(
    (ix): TSolanaInstructionContext => ({
      program_key: ix.programKey,
      accounts: ix.accounts.map((a) => ({ account_key: a.accountKey, signer: a.signer, writable: a.writable })),
      instruction_data_hex: ix.dataHex,
      address_table_lookups: ix.addressTableLookups.map(ref),
    }),
  );
  return {
    static_account_keys: f.staticAccountKeys,
    account_keys: f.staticAccountKeys,
    top_level_program_keys: f.programKeys,
    program_keys: f.programKeys,
    top_level_instructions: instructions,
    instructions,
    transfers: f.transfers.map((t) => ({ from: t.from, to: t.to, amount: t.amount })),
    spl_transfers: f.splTransfers.map((t) => ({ from: t.from, to: t.to, amount: t.amount, owner: t.owner, signers: t.signers, token_mint: t.tokenMint })),
    recent_blockhash: f.recentBlockhash,
    address_table_lookups: f.addressTableLookups.map((l) => ({ address_table_key: l.addressTableKey, writable_indexes: l.writableIndexes, readonly_indexes: l.readonlyIndexes })),
    address_table_lookup_references: f.addressTableLookupReferences.map(ref),
  };
}

type TIntent = Readonly<Record<string, unknown>>;
type TParamsExtractor = (intent: TIntent) => Record<string, unknown>;

/** Copies `intent[from]` to `to` when present; numbers become ints. */
function pick(intent: TIntent, out: Record<string, unknown>, from: string, to: string): void {
  const value = intent[from];
  if (value === undefined || value === null) return;
  out[to] = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
}

/**
 * A definition's `policyParams`: the request fields Turnkey exposes to policies for that kind (docs
 * "Activity parameters"), renamed camelCase → snake_case; every other field of a request is absent
 * (a MissingField if a policy reads it). `defaults` are present even when the request omits them.
 */
export function exposeParams(mapping: Record<string, string>, defaults: Record<string, unknown> = {}): TParamsExtractor {
  return (intent) => {
    const out: Record<string, unknown> = { ...defaults };
    for (const [from, to] of Object.entries(mapping)) pick(intent, out, from, to);
    return out;
  };
}

/** `activity` of a request: type, kind, resource and action from the docs' table, and its exposed params. */
export function activityContext(type: string, params: Record<string, unknown>): TPolicyActivity {
  const entry = activityPolicyEntry(type);
  const activity: TPolicyActivity = { type, kind: activityKind(type), params };
  if (entry) {
    activity.resource = entry.resource;
    activity.action = entry.action;
  }
  return activity;
}

export interface TConditionContextInput extends TPolicyFacts {
  type: string;
  /** `activity.params`: what the kind exposes of its request (its definition's `policyParams`). */
  params: Record<string, unknown>;
  /** Trusted server time (`time.now`). */
  now: Date;
}

/** What an activity touches, looked up by its definition's `policyFacts` for the condition context. */
export interface TPolicyFacts {
  wallet?: TPolicyWallet;
  wallets?: TPolicyWallet[];
  privateKey?: TPolicyPrivateKey;
  walletAccount?: TPolicyWalletAccount;
  /** The signing account's address, for `eth.tx.from`. */
  signerAddress?: string;
  /** The unsigned transaction a sign_transaction signs: parsed into `eth.tx` / `solana.tx`. */
  transaction?: { type: string; unsignedTransaction: string };
  /**
   * The organization's smart contract interfaces for the contracts the transaction calls: keyed by
   * lowercase `0x` address (Ethereum) or program id as written (Solana, base58 is case-sensitive).
   */
  contractInterfaces?: ReadonlyMap<string, TEthereumAbi | TAnchorIdl>;
}

/** What building a condition context will have to look up, given the conditions it will be evaluated by. */
export interface TConditionNeeds {
  /** A condition reads a decoded contract call: the transaction's interfaces must be looked up. */
  contractCalls: boolean;
}

/** The fields only a smart contract interface fills. */
const CONTRACT_CALL_FIELDS = /\b(function_name|function_signature|contract_call_args|parsed_instruction_data)\b/;

/**
 * What the given condition expressions need looked up. A plain text test (a field name inside a
 * string literal counts too): a false positive costs one lookup, a false negative cannot happen.
 */
export function conditionNeeds(conditions: readonly string[]): TConditionNeeds {
  return { contractCalls: conditions.some((c) => CONTRACT_CALL_FIELDS.test(c)) };
}

/** Every lookup: for callers that do not know the conditions. */
export const ALL_CONDITION_NEEDS: TConditionNeeds = { contractCalls: true };

/** Adds the decoded call to `eth.tx` when an ABI for `to` is known and the calldata is a canonical call of it. */
function addContractCall(tx: TEthTxContext, interfaces: TPolicyFacts['contractInterfaces']): void {
  const abi = tx.to === '' ? undefined : interfaces?.get(tx.to);
  if (abi?.kind !== 'ethereum-abi') return;
  const call = decodeEthereumContractCall(abi, tx.data);
  if (!call) return;
  tx.function_name = call.functionName;
  tx.function_signature = call.functionSignature;
  tx.contract_call_args = call.args;
}

/** Adds `parsed_instruction_data` to every instruction whose program has an IDL its data decodes with. */
function addParsedInstructions(tx: TSolanaTxContext, interfaces: TPolicyFacts['contractInterfaces']): void {
  if (!interfaces || interfaces.size === 0) return;
  tx.instructions = tx.instructions.map((ix) => {
    const idl = interfaces.get(ix.program_key);
    if (idl?.kind !== 'anchor-idl') return ix;
    const parsed = decodeAnchorInstruction(
      idl,
      ix.instruction_data_hex,
      ix.accounts.map((a) => a.account_key),
    );
    if (!parsed) return ix;
    return {
      ...ix,
      parsed_instruction_data: { instruction_name: parsed.instructionName, discriminator: parsed.discriminator, named_accounts: parsed.namedAccounts, program_call_args: parsed.args },
    };
  });
  tx.top_level_instructions = tx.instructions;
}


/**
 * The condition context of a request. A transaction (sign_transaction's facts) is parsed into `eth.tx` (TRANSACTION_TYPE_ETHEREUM) or `solana.tx` (TRANSACTION_TYPE_SOLANA); a
 * transaction that does not parse leaves them absent (the signer refuses it anyway, and a policy
 * reading them gets a MissingField rather than a made-up value).
 */
export function createConditionContext(input: TConditionContextInput): TConditionContext {
  const context: TConditionContext = { activity: activityContext(input.type, input.params), time: { now: input.now } };
  if (input.wallet) context.wallet = input.wallet;
  if (input.wallets) context.wallets = input.wallets;
  if (input.privateKey) context.private_key = input.privateKey;
  if (input.walletAccount) context.wallet_account = input.walletAccount;
  const tx = input.transaction;
  if (tx?.type === 'TRANSACTION_TYPE_ETHEREUM') {
    const eth = tryParse(() => ethTxContext(tx.unsignedTransaction, input.signerAddress === undefined ? {} : { from: input.signerAddress }));
    if (eth) {
      addContractCall(eth, input.contractInterfaces);
      context.eth = { tx: eth };
    }
  } else if (tx?.type === 'TRANSACTION_TYPE_SOLANA') {
    const solana = tryParse(() => solanaTxContext(tx.unsignedTransaction));
    if (solana) {
      addParsedInstructions(solana, input.contractInterfaces);
      context.solana = { tx: solana };
    }
  }
  return context;
}

function tryParse<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    // Only the parsers' refusal means "no such field"; anything else is a bug and propagates.
    if (error instanceof SigningError) return undefined;
    throw error;
  }
}
