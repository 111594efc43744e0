/**
 * TON wallet addresses. A TON address is not derived from the key directly: it is the hash of the
 * StateInit (code + initial data) of the wallet contract that will hold the key, so each wallet
 * version gives the same key a different address.
 *
 * Conventions, matching what wallets (Tonkeeper, @ton/ton) show for a fresh wallet:
 * - workchain 0 (basechain), mainnet;
 * - the standard contracts with their default wallet ids (V3R2/V4R2: subwallet 698983191; V5R1: the
 *   id packed from network -239, workchain 0, version v5r1, subwallet 0);
 * - user-friendly form, URL-safe base64, *non-bounceable* (`UQ…`): TEP-2 recommends that form for
 *   wallets, so a transfer to a not-yet-deployed wallet is not bounced back to the sender.
 *
 * The StateInit hash needs only the code cell's hash and depth (see ton-cell.ts), so the code is
 * embedded as those two constants, checked in ton.spec.ts against @ton/ton's own code cells.
 */
import { base64urlnopad } from '@scure/base';
import { hexToBytes } from '@noble/hashes/utils.js';
import { assertBytes } from '../encoding.js';
import type { TFormatTable } from './format-spec.js';
import { crc16Xmodem } from './stellar.js';
import { beginCell, type TCellRef } from './ton-cell.js';
import { assertNever } from '@latchkey/domain';

export type TTonWalletVersion = 'V3R2' | 'V4R2' | 'V5R1';

/**
 * Representation hash (hex) and depth of each wallet's code cell: the BOCs @ton/ton embeds (V5R1's
 * is ton-blockchain/wallet-contract-v5 `build/wallet_v5.compiled.json`). These hashes are also the
 * well-known "code hash" by which explorers recognise the wallet type. Kept as strings so no caller
 * can mutate the bytes every address depends on.
 */
export const TON_WALLET_CODE: Readonly<Record<TTonWalletVersion, { readonly hash: string; readonly depth: number }>> = {
  V3R2: { hash: '84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599', depth: 0 },
  V4R2: { hash: 'feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0', depth: 7 },
  V5R1: { hash: '20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f', depth: 6 },
};

function codeRef(version: TTonWalletVersion): TCellRef {
  const code = TON_WALLET_CODE[version] as (typeof TON_WALLET_CODE)[TTonWalletVersion] | undefined;
  // Callers from plain JS (or a cast) can pass anything; fail loudly rather than hash `undefined`.
  if (!code) throw new TypeError(`unknown TON wallet version ${String(version)}`);
  return { hash: hexToBytes(code.hash), depth: code.depth };
}

const WORKCHAIN = 0;
const MAINNET_GLOBAL_ID = -239;

/** V3/V4 default subwallet id: 698983191 + workchain, the value every wallet app uses. */
const V3_V4_SUBWALLET_ID = 698983191 + WORKCHAIN;

/**
 * V5R1 wallet_id = network_global_id XOR context, as a 32-bit integer. The client context packs,
 * most significant bit first: 1 (is client context) ‖ workchain:int8 ‖ wallet_version:uint8 (0 =
 * v5r1) ‖ subwallet_number:uint15. Mainnet, workchain 0, subwallet 0 gives 0x7fffff11 (2147483409).
 */
const V5R1_VERSION = 0;
const V5R1_SUBWALLET = 0;
const V5R1_CONTEXT = ((1 << 31) | ((WORKCHAIN & 0xff) << 23) | (V5R1_VERSION << 15) | V5R1_SUBWALLET) >>> 0;
const V5R1_WALLET_ID = (MAINNET_GLOBAL_ID ^ V5R1_CONTEXT) >>> 0;

/** The wallet's initial persistent data (c4), in the layout the contract's code loads it from. */
function walletData(version: TTonWalletVersion, publicKey: Uint8Array): TCellRef {
  switch (version) {
    case 'V3R2':
      return beginCell().storeUint(0, 32).storeUint(V3_V4_SUBWALLET_ID, 32).storeBytes(publicKey).end();
    case 'V4R2':
      // Trailing 0 bit: the plugins dictionary (HashmapE) is empty.
      return beginCell().storeUint(0, 32).storeUint(V3_V4_SUBWALLET_ID, 32).storeBytes(publicKey).storeBit(0).end();
    case 'V5R1':
      // is_signature_allowed = 1, seqno = 0, wallet_id, public key, empty extensions dictionary.
      return beginCell()
        .storeBit(1)
        .storeUint(0, 32)
        .storeUint(V5R1_WALLET_ID, 32)
        .storeBytes(publicKey)
        .storeBit(0)
        .end();
    default:
      return assertNever(version, (v) => new TypeError(`unknown TON wallet version ${String(v)}`));
  }
}

/**
 * Hash of the wallet's StateInit cell, i.e. the account id within workchain 0.
 * @throws TypeError if `publicKey` is not 32 bytes or `version` is unknown.
 */
export function tonWalletAccountId(version: TTonWalletVersion, publicKey: Uint8Array): Uint8Array {
  assertBytes(publicKey, 'publicKey', 32);
  const code = codeRef(version);
  // StateInit: split_depth absent (0), special absent (0), code present (1), data present (1),
  // library dictionary empty (0); code and data as the two references, in that order.
  const stateInit = beginCell()
    .storeUint(0b00110, 5)
    .storeRef(code)
    .storeRef(walletData(version, publicKey))
    .end();
  return stateInit.hash;
}

/**
 * User-friendly form of a workchain-0 mainnet address, non-bounceable: base64url of
 * tag (0x51) ‖ workchain (0x00) ‖ account id ‖ CRC16-XMODEM of those 34 bytes, big-endian.
 * @throws TypeError if `accountId` is not 32 bytes.
 */
export function tonFriendlyAddress(accountId: Uint8Array): string {
  assertBytes(accountId, 'accountId', 32);
  const out = new Uint8Array(36);
  // 0x11 = bounceable, 0x51 = 0x11 | 0x40 (non-bounceable); 0x80 would mark testnet-only.
  out[0] = 0x51;
  out[1] = WORKCHAIN & 0xff;
  out.set(accountId, 2);
  const crc = crc16Xmodem(out.subarray(0, 34));
  out[34] = crc >> 8;
  out[35] = crc & 0xff;
  return base64urlnopad.encode(out);
}

/**
 * The non-bounceable mainnet address (`UQ…`, 48 characters) of a standard wallet of `version` for a
 * raw 32-byte ed25519 public key.
 * @throws TypeError if `publicKey` is not 32 bytes.
 */
export function tonWalletAddress(version: TTonWalletVersion, publicKey: Uint8Array): string {
  return tonFriendlyAddress(tonWalletAccountId(version, publicKey));
}

export const TON_ADDRESS_FORMATS: TFormatTable = {
  ADDRESS_FORMAT_TON_V3R2: { curves: ['CURVE_ED25519'], encode: (_curve, publicKey) => tonWalletAddress('V3R2', publicKey) },
  ADDRESS_FORMAT_TON_V4R2: { curves: ['CURVE_ED25519'], encode: (_curve, publicKey) => tonWalletAddress('V4R2', publicKey) },
  ADDRESS_FORMAT_TON_V5R1: { curves: ['CURVE_ED25519'], encode: (_curve, publicKey) => tonWalletAddress('V5R1', publicKey) },
};
