/**
 * EIP-712 typed structured data hashing: the digest of `PAYLOAD_ENCODING_EIP712` payloads,
 * `keccak256(0x19 0x01 ‖ domainSeparator ‖ hashStruct(message))`.
 *
 * The payload is the JSON `{types, primaryType, domain, message}` that viem's `serializeTypedData`
 * produces (bigints as decimal strings, `EIP712Domain` in `types` optional). We follow ethers v6
 * and viem where the EIP leaves room: integers may be JSON numbers (safe integers only), decimal
 * or `0x` strings; `bytesN` must be exactly N bytes; mixed-case addresses must carry a valid EIP-55
 * checksum; struct fields not declared in `types` are ignored, but a domain key the inferred
 * `EIP712Domain` does not know is refused (it would silently not be signed). Identifiers are
 * restricted to Solidity's alphabet so that no two type sets can spell the same `encodeType`.
 *
 * Why not `micro-eth-signer`'s `signTyped` / ethers' `TypedDataEncoder` (both used as oracles in
 * `eip712.spec.ts`): micro-eth-signer signs a string with a lone surrogate as the bytes of U+FFFD
 * (a different message from the one sent) and accepts a mixed-case address with a wrong EIP-55
 * checksum, and it refuses message fields that `types` does not declare, which viem and ethers
 * ignore, so Turnkey clients' payloads would fail. Neither is a runtime dependency here.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { toChecksumAddress } from '../../addresses/ethereum.js';
import { decodeHexInput } from '../../signing/hex-input.js';
import { SigningError } from '../../signing/signing-error.js';

export interface TTypedDataField {
  name: string;
  type: string;
}

export interface TTypedData {
  types: Record<string, TTypedDataField[]>;
  primaryType: string;
  domain: Record<string, unknown>;
  /** Absent when `primaryType` is `EIP712Domain` (a domain-only signature). */
  message?: Record<string, unknown>;
}

const IDENTIFIER_RE = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const FIELD_TYPE_RE = /^([A-Za-z_$][A-Za-z0-9_$]*)((?:\[(?:[1-9][0-9]*)?\])*)$/;
const INT_RE = /^(u?)int([0-9]+)$/;
const BYTES_N_RE = /^bytes([0-9]+)$/;
// Value nesting (structs and arrays) deeper than this is refused before it can exhaust the stack.
const MAX_DEPTH = 32;

/** The domain fields EIP-712 defines, in the order the inferred `EIP712Domain` lists them. */
const DOMAIN_FIELDS: readonly TTypedDataField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
];

function invalid(message: string): SigningError {
  return new SigningError('MALFORMED_INPUT', `invalid EIP-712 typed data: ${message}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAtomic(base: string): boolean {
  if (base === 'address' || base === 'bool' || base === 'string' || base === 'bytes') return true;
  const int = INT_RE.exec(base);
  if (int) {
    const bits = Number(int[2]);
    return bits >= 8 && bits <= 256 && bits % 8 === 0 && String(bits) === int[2];
  }
  const fixed = BYTES_N_RE.exec(base);
  if (fixed) {
    const n = Number(fixed[1]);
    return n >= 1 && n <= 32 && String(n) === fixed[1];
  }
  return false;
}

/** Checks `types` once, so the encoders below can trust every name they meet. */
function assertTypes(types: unknown): asserts types is Record<string, TTypedDataField[]> {
  if (!isPlainObject(types)) throw invalid('types must be an object');
  for (const [name, fields] of Object.entries(types)) {
    if (!IDENTIFIER_RE.test(name)) throw invalid(`type name ${JSON.stringify(name)} is not an identifier`);
    if (isAtomic(name)) throw invalid(`type name ${name} shadows an atomic type`);
    if (!Array.isArray(fields)) throw invalid(`types.${name} must be an array of {name, type}`);
    const seen = new Set<string>();
    for (const [i, field] of fields.entries()) {
      if (!isPlainObject(field) || typeof field['name'] !== 'string' || typeof field['type'] !== 'string') {
        throw invalid(`types.${name}[${i}] must be {name: string, type: string}`);
      }
      const fieldName = field['name'];
      const fieldType = field['type'];
      if (!IDENTIFIER_RE.test(fieldName)) throw invalid(`types.${name}[${i}].name ${JSON.stringify(fieldName)} is not an identifier`);
      if (seen.has(fieldName)) throw invalid(`types.${name} declares ${fieldName} twice`);
      seen.add(fieldName);
      const match = FIELD_TYPE_RE.exec(fieldType);
      const base = match?.[1];
      if (base === undefined || (!isAtomic(base) && !Object.hasOwn(types, base))) {
        throw invalid(`types.${name}.${fieldName} has unknown type ${JSON.stringify(fieldType)}`);
      }
    }
  }
}

/**
 * Parses and validates the JSON payload of `PAYLOAD_ENCODING_EIP712`.
 * @throws {SigningError} `MALFORMED_INPUT` for invalid JSON or typed data.
 */
export function parseTypedData(json: string): TTypedData {
  if (typeof json !== 'string') throw new TypeError(`typed data must be a JSON string, got ${typeof json}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw invalid('payload is not valid JSON');
  }
  if (!isPlainObject(parsed)) throw invalid('payload must be a JSON object');
  const { types, primaryType, domain, message } = parsed;
  assertTypes(types);
  if (typeof primaryType !== 'string') throw invalid('primaryType must be a string');
  if (primaryType !== 'EIP712Domain' && !Object.hasOwn(types, primaryType)) throw invalid(`primaryType ${primaryType} is not in types`);
  if (domain !== undefined && !isPlainObject(domain)) throw invalid('domain must be an object');
  if (primaryType !== 'EIP712Domain' && !isPlainObject(message)) throw invalid('message must be an object');
  return {
    types,
    primaryType,
    domain: domain ?? {},
    ...(isPlainObject(message) ? { message } : {}),
  };
}

function baseType(type: string): string {
  const bracket = type.indexOf('[');
  return bracket === -1 ? type : type.slice(0, bracket);
}

class Encoder {
  private readonly typeHashes = new Map<string, Uint8Array>();

  constructor(private readonly types: Record<string, TTypedDataField[]>) {}

  private fields(type: string): TTypedDataField[] {
    const fields = this.types[type];
    if (!fields) throw invalid(`type ${type} is not defined`);
    return fields;
  }

  /** `type` and every struct it references, directly or through arrays (EIP-712 `encodeType`). */
  encodeType(primary: string): string {
    const found = new Set<string>([primary]);
    const queue = [primary];
    for (let type = queue.shift(); type !== undefined; type = queue.shift()) {
      for (const field of this.fields(type)) {
        const base = baseType(field.type);
        if (!isAtomic(base) && !found.has(base)) {
          found.add(base);
          queue.push(base);
        }
      }
    }
    found.delete(primary);
    const ordered = [primary, ...[...found].sort()];
    return ordered.map((t) => `${t}(${this.fields(t).map((f) => `${f.type} ${f.name}`).join(',')})`).join('');
  }

  typeHash(type: string): Uint8Array {
    let hash = this.typeHashes.get(type);
    if (!hash) {
      hash = keccak_256(new TextEncoder().encode(this.encodeType(type)));
      this.typeHashes.set(type, hash);
    }
    return hash;
  }

  hashStruct(type: string, value: unknown, path: string, depth: number): Uint8Array {
    if (depth > MAX_DEPTH) throw invalid(`${path} is nested deeper than ${MAX_DEPTH} levels`);
    if (!isPlainObject(value)) throw invalid(`${path} must be an object (struct ${type})`);
    const fields = this.fields(type);
    const out = new Uint8Array(32 * (fields.length + 1));
    out.set(this.typeHash(type), 0);
    for (const [i, field] of fields.entries()) {
      if (!Object.hasOwn(value, field.name) || value[field.name] === undefined || value[field.name] === null) {
        throw invalid(`${path}.${field.name} is missing`);
      }
      out.set(this.encodeValue(field.type, value[field.name], `${path}.${field.name}`, depth + 1), 32 * (i + 1));
    }
    return keccak_256(out);
  }

  /** The 32-byte `encodeData` word of one value. */
  encodeValue(type: string, value: unknown, path: string, depth: number): Uint8Array {
    if (type.endsWith(']')) {
      if (depth > MAX_DEPTH) throw invalid(`${path} is nested deeper than ${MAX_DEPTH} levels`);
      const open = type.lastIndexOf('[');
      const inner = type.slice(0, open);
      const size = type.slice(open + 1, -1);
      if (!Array.isArray(value)) throw invalid(`${path} must be an array (${type})`);
      if (size !== '' && value.length !== Number(size)) throw invalid(`${path} must have ${size} elements, got ${value.length}`);
      const out = new Uint8Array(32 * value.length);
      for (const [i, element] of value.entries()) out.set(this.encodeValue(inner, element, `${path}[${i}]`, depth + 1), 32 * i);
      return keccak_256(out);
    }
    if (!isAtomic(type)) return this.hashStruct(type, value, path, depth);
    return encodeAtomic(type, value, path);
  }
}

function parseInteger(value: unknown, path: string): bigint {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw invalid(`${path} must be an integer (numbers beyond 2^53 must be sent as strings)`);
    return BigInt(value);
  }
  if (typeof value === 'string') {
    const match = /^(-?)(0x[0-9a-fA-F]+|[0-9]+)$/.exec(value);
    if (match) {
      const magnitude = BigInt(match[2]!);
      return match[1] ? -magnitude : magnitude;
    }
  }
  throw invalid(`${path} must be an integer (JSON number, decimal or 0x string)`);
}

function word(bytes: Uint8Array, padRight: boolean): Uint8Array {
  const out = new Uint8Array(32);
  out.set(bytes, padRight ? 0 : 32 - bytes.length);
  return out;
}

function hexValue(value: unknown, path: string): Uint8Array {
  if (typeof value !== 'string') throw invalid(`${path} must be a hex string`);
  try {
    return decodeHexInput(value, path);
  } catch {
    throw invalid(`${path} must be hexadecimal with an even number of digits`);
  }
}

const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function encodeAtomic(type: string, value: unknown, path: string): Uint8Array {
  if (type === 'string') {
    if (typeof value !== 'string') throw invalid(`${path} must be a string`);
    // TextEncoder would replace a lone surrogate with U+FFFD: sign what was sent, or nothing.
    if (LONE_SURROGATE_RE.test(value)) throw invalid(`${path} is not well-formed Unicode`);
    return keccak_256(new TextEncoder().encode(value));
  }
  if (type === 'bytes') return keccak_256(hexValue(value, path));
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw invalid(`${path} must be true or false`);
    return word(Uint8Array.of(value ? 1 : 0), false);
  }
  if (type === 'address') {
    if (typeof value !== 'string' || !/^(0x)?[0-9a-fA-F]{40}$/.test(value)) throw invalid(`${path} must be a 20-byte hex address`);
    const digits = value.replace(/^0x/, '');
    const mixedCase = digits !== digits.toLowerCase() && digits !== digits.toUpperCase();
    if (mixedCase && toChecksumAddress(digits) !== `0x${digits}`) throw invalid(`${path} has an invalid EIP-55 checksum`);
    return word(hexValue(digits, path), false);
  }
  const fixed = BYTES_N_RE.exec(type);
  if (fixed) {
    const bytes = hexValue(value, path);
    if (bytes.length !== Number(fixed[1])) throw invalid(`${path} must be ${fixed[1]} bytes (${type}), got ${bytes.length}`);
    return word(bytes, true);
  }
  const int = INT_RE.exec(type);
  if (int) {
    const bits = BigInt(int[2]!);
    const n = parseInteger(value, path);
    const signed = int[1] === '';
    const min = signed ? -(1n << (bits - 1n)) : 0n;
    const max = signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
    if (n < min || n > max) throw invalid(`${path} is out of range for ${type}`);
    const twos = n < 0n ? (1n << 256n) + n : n;
    return word(Uint8Array.from(Buffer.from(twos.toString(16).padStart(64, '0'), 'hex')), false);
  }
  throw invalid(`${path} has unknown type ${type}`);
}

/** The `EIP712Domain` fields: as declared in `types`, else inferred from the keys `domain` has. */
function domainFields(typedData: TTypedData): TTypedDataField[] {
  const declared = typedData.types['EIP712Domain'];
  if (declared) return declared;
  const known = new Set(DOMAIN_FIELDS.map((f) => f.name));
  for (const key of Object.keys(typedData.domain)) {
    if (!known.has(key)) throw invalid(`domain.${key} is not an EIP-712 domain field (declare EIP712Domain in types to use it)`);
  }
  return DOMAIN_FIELDS.filter((f) => typedData.domain[f.name] !== undefined && typedData.domain[f.name] !== null);
}

/**
 * The EIP-712 signing digest of `typedData` (as `parseTypedData` returns it).
 * A `primaryType` of `EIP712Domain` signs the domain alone: `keccak256(0x1901 ‖ domainSeparator)`.
 * @throws {SigningError} `MALFORMED_INPUT` when a value does not fit its declared type.
 */
export function hashTypedData(typedData: TTypedData): Uint8Array {
  const types = { ...typedData.types, EIP712Domain: domainFields(typedData) };
  assertTypes(types);
  const encoder = new Encoder(types);
  const domainSeparator = encoder.hashStruct('EIP712Domain', typedData.domain, 'domain', 0);
  const parts = [Uint8Array.of(0x19, 0x01), domainSeparator];
  if (typedData.primaryType !== 'EIP712Domain') {
    parts.push(encoder.hashStruct(typedData.primaryType, typedData.message, 'message', 0));
  }
  return keccak_256(Buffer.concat(parts));
}
