/**
 * What a sponsored send builds around the gas station (LatchkeyGasStation.sol): the station's
 * address (CREATE2 through the standard deterministic deployer, so it is the same on every chain
 * and needs no record), the account's EIP-712 signature over the call, the `execute` call data,
 * the account's EIP-7702 authorization, and the type-4 transaction the relayer signs. Every
 * encoder here is checked against ethers 6 in gas-station.spec.ts.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeHex, encodeHex } from '../../../encoding.js';
import { toChecksumAddress } from '../../../addresses/ethereum.js';
import { signSecp256k1Digest } from '../../../keys/secp256k1.js';
import { SigningError } from '../../../signing/signing-error.js';
import { encodeRlp, encodeRlpUint, type TRlpItem } from '../rlp.js';
import { GAS_STATION_INIT_CODE } from './gas-station-bytecode.js';

/** The deterministic-deployment proxy (Arachnid's), present on mainnets, testnets and anvil: CREATE2 with `salt ‖ initCode` as call data. */
export const CREATE2_DEPLOYER = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
const SALT = new Uint8Array(32);

/** keccak256("latchkey.gas-station.nonce") - 1: where the station keeps an account's nonce (its storage). */
export const GAS_STATION_NONCE_SLOT = '0x5c8de03e57aa25910c4c877fcbb774ee550363bb75a5c7f41660cdf6c536d219';

const bytesOf = (hex: string, field: string, length?: number): Uint8Array => {
  const b = decodeHex(hex.replace(/^0x/i, ''));
  if (!b || (length !== undefined && b.length !== length)) throw new SigningError('MALFORMED_INPUT', `${field} must be ${length === undefined ? '' : `${length} bytes of `}0x hex`);
  return b;
};
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const word = (n: bigint): Uint8Array => {
  if (n < 0n || n >= 2n ** 256n) throw new SigningError('MALFORMED_INPUT', 'a uint256 is out of range');
  return bytesOf(n.toString(16).padStart(64, '0'), 'word', 32);
};
const addressWord = (a: string, field: string): Uint8Array => concat(new Uint8Array(12), bytesOf(a, field, 20));
const text = (s: string) => keccak_256(new TextEncoder().encode(s));

/** The station's creation code as the deployer receives it: `salt ‖ initCode`. */
export function gasStationDeployData(): string {
  return `0x${encodeHex(concat(SALT, bytesOf(GAS_STATION_INIT_CODE, 'initCode')))}`;
}

/** Where CREATE2 through CREATE2_DEPLOYER puts the station (EIP-55). */
export function gasStationAddress(): string {
  const hash = keccak_256(concat(Uint8Array.of(0xff), bytesOf(CREATE2_DEPLOYER, 'deployer', 20), SALT, keccak_256(bytesOf(GAS_STATION_INIT_CODE, 'initCode'))));
  return toChecksumAddress(encodeHex(hash.subarray(12)));
}

export interface TGasStationCall {
  chainId: bigint;
  /** The sponsored account (the station runs as it). */
  account: string;
  to: string;
  value: bigint;
  data: string;
  nonce: bigint;
  deadline: bigint;
}

const DOMAIN_TYPEHASH = text('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)');
const EXECUTE_TYPEHASH = text('Execute(address to,uint256 value,bytes data,uint256 nonce,uint256 deadline)');

/** The EIP-712 digest the account signs: Execute{to, value, data, nonce, deadline} in the domain (LatchkeyGasStation, 1, chainId, account). */
export function gasStationExecuteDigest(c: TGasStationCall): Uint8Array {
  const domain = keccak_256(concat(DOMAIN_TYPEHASH, text('LatchkeyGasStation'), text('1'), word(c.chainId), addressWord(c.account, 'account')));
  const struct = keccak_256(concat(EXECUTE_TYPEHASH, addressWord(c.to, 'to'), word(c.value), keccak_256(bytesOf(c.data, 'data')), word(c.nonce), word(c.deadline)));
  return keccak_256(concat(Uint8Array.of(0x19, 0x01), domain, struct));
}

/** `r ‖ s ‖ v` (v 27/28, low s), as the station's ecrecover reads it. */
export function signGasStationCall(privateKey: Uint8Array, c: TGasStationCall): string {
  const sig = signSecp256k1Digest(gasStationExecuteDigest(c), privateKey);
  return `0x${encodeHex(concat(sig.r, sig.s, Uint8Array.of(27 + sig.recovery)))}`;
}

const EXECUTE_SELECTOR = keccak_256(new TextEncoder().encode('execute(address,uint256,bytes,uint256,uint256,bytes)')).subarray(0, 4);
const dynamic = (b: Uint8Array): Uint8Array => concat(word(BigInt(b.length)), b, new Uint8Array((32 - (b.length % 32)) % 32));

/** Call data of `execute(to, value, data, nonce, deadline, signature)`. */
export function encodeGasStationExecute(c: Omit<TGasStationCall, 'chainId' | 'account'> & { signature: string }): string {
  const data = dynamic(bytesOf(c.data, 'data'));
  const sig = dynamic(bytesOf(c.signature, 'signature', 65));
  const head = concat(addressWord(c.to, 'to'), word(c.value), word(6n * 32n), word(c.nonce), word(c.deadline), word(BigInt(6 * 32 + data.length)));
  return `0x${encodeHex(concat(EXECUTE_SELECTOR, head, data, sig))}`;
}

/** An EIP-7702 authorization tuple `[chainId, address, nonce, yParity, r, s]`, signed by the authority's key. */
export function signEip7702Authorization(privateKey: Uint8Array, a: { chainId: bigint; address: string; nonce: bigint }): TRlpItem {
  const fields: TRlpItem = [encodeRlpUint(a.chainId), bytesOf(a.address, 'address', 20), encodeRlpUint(a.nonce)];
  const sig = signSecp256k1Digest(keccak_256(concat(Uint8Array.of(0x05), encodeRlp(fields))), privateKey);
  return [...fields, encodeRlpUint(BigInt(sig.recovery)), encodeRlpUint(BigInt(`0x${encodeHex(sig.r)}`)), encodeRlpUint(BigInt(`0x${encodeHex(sig.s)}`))];
}

/**
 * The unsigned type-4 (EIP-7702) serialization, lowercase hex without `0x`:
 * `0x04 ‖ rlp([chainId, nonce, tip, maxFee, gas, to, value, data, [], authorizationList])`.
 */
export function encodeEip7702Unsigned(f: { chainId: bigint; nonce: bigint; maxPriorityFeePerGas: bigint; maxFeePerGas: bigint; gasLimit: bigint; to: string; value: bigint; data: string; authorizationList: TRlpItem[] }): string {
  const body = encodeRlp([
    encodeRlpUint(f.chainId),
    encodeRlpUint(f.nonce),
    encodeRlpUint(f.maxPriorityFeePerGas),
    encodeRlpUint(f.maxFeePerGas),
    encodeRlpUint(f.gasLimit),
    bytesOf(f.to, 'to', 20),
    encodeRlpUint(f.value),
    bytesOf(f.data, 'data'),
    [],
    f.authorizationList,
  ]);
  return encodeHex(concat(Uint8Array.of(0x04), body));
}
