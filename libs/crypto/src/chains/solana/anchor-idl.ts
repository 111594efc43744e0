/**
 * Solana smart contract interfaces (issue 16 §5): an Anchor IDL is checked once here, and the
 * instruction data of a transaction's instruction to that program is decoded with it for the
 * policy field `solana.tx.instructions[i].parsed_instruction_data`
 * (`{instruction_name, discriminator, named_accounts, program_call_args}`, Turnkey's names).
 *
 * Why zod and not `@coral-xyz/anchor`: Anchor's `Idl` is a TypeScript type only (nothing checks
 * a JSON against it at run time), and the package pulls in `@solana/web3.js`, `bn.js` and
 * `buffer-layout` to give us a Borsh coder we need a page of. The schema below follows Anchor's IDL
 * spec (`anchor-lang-idl-spec`, 0.30+: `address`, `metadata`, `discriminator` per instruction,
 * `{defined: {name}}`, `pubkey`) and reads the legacy layout (< 0.30: `isMut`/`isSigner`,
 * `publicKey`, `{defined: "Name"}`, discriminator `sha256("global:<name>")[..8]`) too, since most
 * published IDLs are still in it.
 *
 * Decoding is Borsh, exact or nothing: the data must start with the instruction's discriminator
 * and its arguments must use every byte (a trailing byte, an option tag other than 0/1, a bool
 * other than 0/1, a string that is not UTF-8 → undecodable). Floats have no policy-language type,
 * so an instruction with one is undecodable too. Undecodable leaves `parsed_instruction_data`
 * absent, so a policy reading it errors (deny).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { base58 } from '@scure/base';
import { z } from 'zod';
import { SigningError } from '../../signing/signing-error.js';
import { assertJsonDepth } from '../json-depth.js';

/** Nesting bound for IDL types (a recursive type must not recurse for ever). */
const MAX_TYPE_DEPTH = 32;
/**
 * Values one decode may produce. A transaction is at most 1,232 bytes, but zero-sized items (an
 * empty struct, a unit enum's fields) take no bytes, so a vector length or a `[T; 1000000]` array
 * could otherwise make a few bytes cost millions of steps.
 */
const MAX_DECODED_VALUES = 10_000;

type TIdlType =
  | string
  | { vec: TIdlType }
  | { option: TIdlType }
  | { coption: TIdlType }
  | { array: [TIdlType, number | { generic: string }] }
  | { defined: string | { name: string; generics?: unknown[] } }
  | { generic: string };

const ZIdlTypeSchema: z.ZodType<TIdlType> = z.lazy(() =>
  z.union([
    z.string().min(1),
    z.object({ vec: ZIdlTypeSchema }).strict(),
    z.object({ option: ZIdlTypeSchema }).strict(),
    z.object({ coption: ZIdlTypeSchema }).strict(),
    z.object({ array: z.tuple([ZIdlTypeSchema, z.union([z.number().int().nonnegative().max(1_000_000), z.object({ generic: z.string() })])]) }).strict(),
    z.object({ defined: z.union([z.string().min(1), z.object({ name: z.string().min(1), generics: z.array(z.unknown()).optional() }).passthrough()]) }).strict(),
    z.object({ generic: z.string() }).strict(),
  ]),
);

const ZIdlFieldSchema = z.object({ name: z.string().min(1), type: ZIdlTypeSchema }).passthrough();

/** An instruction account, or (composite accounts) a named group of them. */
type TIdlAccountItem = { name: string; accounts?: TIdlAccountItem[] };
const ZIdlAccountItemSchema: z.ZodType<TIdlAccountItem> = z.lazy(() =>
  z.object({ name: z.string().min(1), accounts: z.array(ZIdlAccountItemSchema).optional() }).passthrough(),
);

const ZIdlInstructionSchema = z
  .object({
    name: z.string().min(1),
    discriminator: z.array(z.number().int().min(0).max(255)).min(1).max(64).optional(),
    accounts: z.array(ZIdlAccountItemSchema),
    args: z.array(ZIdlFieldSchema),
  })
  .passthrough();

const ZIdlTypeDefSchema = z
  .object({
    name: z.string().min(1),
    type: z.union([
      z.object({ kind: z.literal('struct'), fields: z.union([z.array(ZIdlFieldSchema), z.array(ZIdlTypeSchema)]).optional() }).passthrough(),
      z
        .object({
          kind: z.literal('enum'),
          variants: z.array(z.object({ name: z.string().min(1), fields: z.union([z.array(ZIdlFieldSchema), z.array(ZIdlTypeSchema)]).optional() }).passthrough()),
        })
        .passthrough(),
      z.object({ kind: z.literal('type'), alias: ZIdlTypeSchema }).passthrough(),
    ]),
  })
  .passthrough();

const ZAnchorIdlSchema = z
  .object({
    address: z.string().optional(),
    metadata: z.object({ name: z.string().optional() }).passthrough().optional(),
    name: z.string().optional(),
    instructions: z.array(ZIdlInstructionSchema).min(1, 'must list at least one instruction'),
    types: z.array(ZIdlTypeDefSchema).optional(),
  })
  .passthrough();

type TIdlInstruction = z.infer<typeof ZIdlInstructionSchema>;
type TIdlTypeDef = z.infer<typeof ZIdlTypeDefSchema>;
type TIdlFields = z.infer<typeof ZIdlFieldSchema>[] | TIdlType[] | undefined;

/** An IDL that passed the schema: instructions with their discriminators, and the named types. */
export interface TAnchorIdl {
  readonly kind: 'anchor-idl';
  /** The program address the IDL declares, when it does (0.30+). */
  readonly address?: string;
  readonly instructions: readonly { name: string; discriminator: Uint8Array; accounts: string[]; args: { name: string; type: TIdlType }[] }[];
  readonly types: ReadonlyMap<string, TIdlTypeDef>;
}

/** A value in the policy language: bigint, string, boolean, a list, or a struct (Map). */
export type TIdlValue = bigint | string | boolean | TIdlValue[] | Map<string, TIdlValue>;

/** An instruction decoded with an IDL: Turnkey's `parsed_instruction_data`. */
export interface TAnchorInstruction {
  instructionName: string;
  /** Lowercase hex, no prefix (as `instruction_data_hex`). */
  discriminator: string;
  /** The instruction's accounts by their IDL names (composite groups flattened, in order). */
  namedAccounts: Map<string, string>;
  args: Map<string, TIdlValue>;
}

/** Anchor's legacy discriminator: the first 8 bytes of `sha256("global:" + snake_case(name))`. */
function legacyDiscriminator(name: string): Uint8Array {
  const snake = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').toLowerCase();
  return sha256(new TextEncoder().encode(`global:${snake}`)).slice(0, 8);
}

function flattenAccounts(items: readonly TIdlAccountItem[], out: string[] = []): string[] {
  for (const item of items) {
    if (item.accounts) flattenAccounts(item.accounts, out);
    else out.push(item.name);
  }
  return out;
}

const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');

/**
 * Parses an Anchor IDL given as JSON text.
 * @throws {SigningError} MALFORMED_INPUT naming the first field that does not follow the IDL spec, or two instructions with one discriminator
 */
export function parseAnchorIdl(json: string): TAnchorIdl {
  assertJsonDepth(json, 'the IDL');
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new SigningError('MALFORMED_INPUT', `the IDL is not JSON: ${(e as Error).message}`);
  }
  const parsed = ZAnchorIdlSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.length ? issue.path.join('.') : 'the IDL';
    throw new SigningError('MALFORMED_INPUT', `not an Anchor IDL: ${at}: ${issue.message}`);
  }
  const idl = parsed.data;
  const types = new Map<string, TIdlTypeDef>();
  for (const t of idl.types ?? []) types.set(t.name, t);
  const seen = new Map<string, string>();
  const instructions = idl.instructions.map((ix: TIdlInstruction) => {
    const discriminator = ix.discriminator ? Uint8Array.from(ix.discriminator) : legacyDiscriminator(ix.name);
    const key = hexOf(discriminator);
    const taken = seen.get(key);
    if (taken !== undefined) throw new SigningError('MALFORMED_INPUT', `instructions ${taken} and ${ix.name} have the same discriminator ${key}`);
    seen.set(key, ix.name);
    for (const a of ix.args) assertKnownType(a.type, types, `instruction ${ix.name}, argument ${a.name}`, 0);
    return { name: ix.name, discriminator, accounts: flattenAccounts(ix.accounts), args: ix.args.map((a) => ({ name: a.name, type: a.type })) };
  });
  // Variable-length discriminators (0.30+): one that starts another would make the reading depend on list order.
  for (const a of instructions) {
    const b = instructions.find((o) => o !== a && o.discriminator.length > a.discriminator.length && a.discriminator.every((x, k) => o.discriminator[k] === x));
    if (b) throw new SigningError('MALFORMED_INPUT', `the discriminator of instruction ${a.name} is a prefix of ${b.name}'s`);
  }
  return { kind: 'anchor-idl', ...(idl.address !== undefined ? { address: idl.address } : {}), instructions, types };
}

const PRIMITIVES = new Set(['bool', 'u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'u64', 'i64', 'u128', 'i128', 'u256', 'i256', 'f32', 'f64', 'string', 'bytes', 'pubkey', 'publicKey']);

/** Every `defined` type an argument uses must be in `types`: a typo is refused when uploaded, not found at signing. */
function assertKnownType(type: TIdlType, types: ReadonlyMap<string, TIdlTypeDef>, where: string, depth: number): void {
  if (depth > MAX_TYPE_DEPTH) return; // recursive types are bounded when decoding
  if (typeof type === 'string') {
    if (!PRIMITIVES.has(type)) throw new SigningError('MALFORMED_INPUT', `${where}: unknown type ${type}`);
    return;
  }
  if ('vec' in type) return assertKnownType(type.vec, types, where, depth + 1);
  if ('option' in type) return assertKnownType(type.option, types, where, depth + 1);
  if ('coption' in type) return assertKnownType(type.coption, types, where, depth + 1);
  if ('array' in type) return assertKnownType(type.array[0], types, where, depth + 1);
  if ('defined' in type) {
    const name = typeof type.defined === 'string' ? type.defined : type.defined.name;
    if (!types.has(name)) throw new SigningError('MALFORMED_INPUT', `${where}: type ${name} is not defined in types`);
  }
}

class Undecodable extends Error {}

class BorshReader {
  offset = 0;
  private values = 0;
  constructor(private readonly data: Uint8Array) {}

  /** Counts one decoded value against the budget. */
  step(): void {
    if (++this.values > MAX_DECODED_VALUES) throw new Undecodable('too many values');
  }

  take(n: number): Uint8Array {
    if (this.offset + n > this.data.length) throw new Undecodable('short');
    const out = this.data.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  uint(bytes: number): bigint {
    const b = this.take(bytes);
    let v = 0n;
    for (let i = bytes - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]!);
    return v;
  }

  int(bytes: number): bigint {
    const v = this.uint(bytes);
    const bits = BigInt(bytes * 8);
    return v >= 1n << (bits - 1n) ? v - (1n << bits) : v;
  }

  get done(): boolean {
    return this.offset === this.data.length;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeValue(r: BorshReader, type: TIdlType, idl: TAnchorIdl, depth: number): TIdlValue {
  if (depth > MAX_TYPE_DEPTH) throw new Undecodable('too deep');
  r.step();
  if (typeof type === 'string') {
    switch (type) {
      case 'bool': {
        const b = r.take(1)[0]!;
        if (b > 1) throw new Undecodable('bool');
        return b === 1;
      }
      case 'u8':
      case 'u16':
      case 'u32':
      case 'u64':
      case 'u128':
      case 'u256':
        return r.uint(Number(type.slice(1)) / 8);
      case 'i8':
      case 'i16':
      case 'i32':
      case 'i64':
      case 'i128':
      case 'i256':
        return r.int(Number(type.slice(1)) / 8);
      case 'string':
        try {
          return utf8.decode(r.take(Number(r.uint(4))));
        } catch (e) {
          throw e instanceof Undecodable ? e : new Undecodable('utf8');
        }
      case 'bytes':
        return hexOf(r.take(Number(r.uint(4))));
      case 'pubkey':
      case 'publicKey':
        return base58.encode(r.take(32));
      default:
        throw new Undecodable(type); // f32/f64: no type in the policy language
    }
  }
  if ('vec' in type) {
    const n = Number(r.uint(4));
    const items: TIdlValue[] = [];
    for (let i = 0; i < n; i++) items.push(decodeValue(r, type.vec, idl, depth + 1));
    return items;
  }
  if ('option' in type || 'coption' in type) {
    const tag = 'option' in type ? r.uint(1) : r.uint(4);
    if (tag > 1n) throw new Undecodable('option tag');
    // None is an empty list, Some(x) a one-item list: the language has no null (absent is an error).
    return tag === 0n ? [] : [decodeValue(r, 'option' in type ? type.option : type.coption, idl, depth + 1)];
  }
  if ('array' in type) {
    const [item, length] = type.array;
    if (typeof length !== 'number') throw new Undecodable('generic length');
    const items: TIdlValue[] = [];
    for (let i = 0; i < length; i++) items.push(decodeValue(r, item, idl, depth + 1));
    return items;
  }
  if ('defined' in type) {
    const name = typeof type.defined === 'string' ? type.defined : type.defined.name;
    const def = idl.types.get(name);
    if (!def) throw new Undecodable(name);
    switch (def.type.kind) {
      case 'struct':
        return decodeFields(r, def.type.fields, idl, depth + 1);
      case 'enum': {
        const index = Number(r.uint(1));
        const variant = def.type.variants[index];
        if (!variant) throw new Undecodable('variant');
        return new Map<string, TIdlValue>([[variant.name, decodeFields(r, variant.fields, idl, depth + 1)]]);
      }
      case 'type':
        return decodeValue(r, def.type.alias, idl, depth + 1);
    }
  }
  throw new Undecodable('generic');
}

/** Named fields become a struct by name; tuple fields a struct by position (`'0'`, `'1'`…). */
function decodeFields(r: BorshReader, fields: TIdlFields, idl: TAnchorIdl, depth: number): Map<string, TIdlValue> {
  const out = new Map<string, TIdlValue>();
  (fields ?? []).forEach((f, i) => {
    const named = typeof f === 'object' && f !== null && 'name' in f && 'type' in f && typeof f.name === 'string';
    out.set(named ? (f as { name: string }).name : String(i), decodeValue(r, named ? (f as { type: TIdlType }).type : (f as TIdlType), idl, depth));
  });
  return out;
}

/**
 * Decodes one instruction's data (lowercase hex) with an IDL.
 * @param accountKeys the instruction's accounts in order (base58, or `ADDRESS_TABLE_LOOKUP`)
 * @returns undefined when no instruction's discriminator matches or the arguments do not decode exactly
 */
export function decodeAnchorInstruction(idl: TAnchorIdl, dataHex: string, accountKeys: readonly string[]): TAnchorInstruction | undefined {
  if (dataHex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(dataHex)) return undefined;
  const data = Uint8Array.from(Buffer.from(dataHex, 'hex'));
  const ix = idl.instructions.find((i) => i.discriminator.length <= data.length && i.discriminator.every((b, k) => data[k] === b));
  if (!ix) return undefined;
  const r = new BorshReader(data);
  r.take(ix.discriminator.length);
  const args = new Map<string, TIdlValue>();
  try {
    for (const a of ix.args) args.set(a.name, decodeValue(r, a.type, idl, 0));
  } catch (e) {
    if (e instanceof Undecodable) return undefined;
    throw e;
  }
  if (!r.done) return undefined;
  const namedAccounts = new Map<string, string>();
  ix.accounts.forEach((name, i) => {
    if (i < accountKeys.length) namedAccounts.set(name, accountKeys[i]!);
  });
  return { instructionName: ix.name, discriminator: hexOf(ix.discriminator), namedAccounts, args };
}
