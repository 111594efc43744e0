/**
 * eth_send_transaction's builder against ethers 6 (an independent implementation): the unsigned
 * EIP-1559 bytes are ethers' `unsignedSerialized` for any fields (fast-check), the signed bytes
 * signed by our signer recover to the key's address and hash to ethers' hash; revert data decodes
 * as Solidity encodes it; LATCHKEY_EVM_RPC_URLS parses and refuses as documented.
 */
import { AbiCoder, Transaction, Wallet, id } from 'ethers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRevertReason, encodeEip1559Unsigned, ethereumTransactionHash } from './build-transaction.js';
import { parseEvmRpcUrls } from './json-rpc.js';
import { signEthereumTransaction } from './sign.js';

const uint = (bits: number) => fc.bigInt({ min: 0n, max: 2n ** BigInt(bits) - 1n });
const hex = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map((b) => `0x${Buffer.from(b).toString('hex')}`);

describe('encodeEip1559Unsigned', () => {
  it('is ethers’ unsignedSerialized for any fields', () => {
    fc.assert(
      // ethers holds the nonce in a JS number and refuses a tip above the fee cap: fields it can hold.
      fc.property(uint(64), uint(32), uint(127), uint(127), uint(64), hex(20, 20), uint(256), hex(0, 64), (chainId, nonce, tip, extra, gas, to, value, data) => {
        const fee = tip + extra;
        const ours = encodeEip1559Unsigned({ chainId, nonce, maxPriorityFeePerGas: tip, maxFeePerGas: fee, gasLimit: gas, to, value, data });
        const theirs = Transaction.from({ type: 2, chainId, nonce: Number(nonce), maxPriorityFeePerGas: tip, maxFeePerGas: fee, gasLimit: gas, to, value, data, accessList: [] });
        expect(`0x${ours}`).toBe(theirs.unsignedSerialized);
      }),
      { numRuns: 200 },
    );
  });

  it('signed by our signer: ethers reads the sender as the key’s address and the same hash', () => {
    const wallet = new Wallet(`0x${'11'.repeat(32)}`);
    const unsigned = encodeEip1559Unsigned({ chainId: 31337n, nonce: 3n, maxPriorityFeePerGas: 1n, maxFeePerGas: 2_000_000_000n, gasLimit: 21_000n, to: '0x000000000000000000000000000000000000bEEF', value: 5n, data: '0x' });
    const signed = `0x${signEthereumTransaction(Buffer.from('11'.repeat(32), 'hex'), unsigned)}`;
    const parsed = Transaction.from(signed);
    expect(parsed.from).toBe(wallet.address);
    expect(ethereumTransactionHash(signed)).toBe(parsed.hash);
  });

  it('refuses a malformed address or data, naming the field', () => {
    const base = { chainId: 1n, nonce: 0n, maxPriorityFeePerGas: 0n, maxFeePerGas: 0n, gasLimit: 0n, to: `0x${'00'.repeat(20)}`, value: 0n, data: '0x' };
    expect(() => encodeEip1559Unsigned({ ...base, to: '0x1234' })).toThrow(/to must be 20 bytes/);
    expect(() => encodeEip1559Unsigned({ ...base, data: '0xabc' })).toThrow(/data/);
    expect(() => encodeEip1559Unsigned({ ...base, value: -1n })).toThrow(/value must not be negative/);
  });
});

describe('decodeRevertReason', () => {
  it('reads Error(string) and Panic(uint256) as Solidity encodes them; a custom error by its selector; nothing from no data', () => {
    const coder = AbiCoder.defaultAbiCoder();
    const error = id('Error(string)').slice(0, 10) + coder.encode(['string'], ['nope: ünïcode']).slice(2);
    expect(decodeRevertReason(error)).toEqual({ message: 'nope: ünïcode', selector: '0x08c379a0', kind: 'native' });
    const panic = id('Panic(uint256)').slice(0, 10) + coder.encode(['uint256'], [0x11]).slice(2);
    expect(decodeRevertReason(panic)).toEqual({ message: 'panic 0x11', selector: '0x4e487b71', kind: 'native' });
    expect(decodeRevertReason('0xdeadbeef')).toEqual({ message: 'custom error 0xdeadbeef', selector: '0xdeadbeef', kind: 'custom' });
    expect(decodeRevertReason('0x')).toBeUndefined();
    expect(decodeRevertReason(undefined)).toBeUndefined();
    expect(decodeRevertReason('not hex')).toBeUndefined();
  });

  it('never throws on arbitrary data', () => {
    fc.assert(fc.property(hex(0, 200), (d) => void decodeRevertReason(d)));
    fc.assert(fc.property(fc.string(), (d) => void decodeRevertReason(`0x08c379a0${d}`)));
  });
});

describe('parseEvmRpcUrls (LATCHKEY_EVM_RPC_URLS)', () => {
  it('reads eip155:N=URL pairs, comma separated; unset is no chain', () => {
    expect([...parseEvmRpcUrls('eip155:1=https://rpc.example/k, eip155:31337=http://127.0.0.1:8545')]).toEqual([
      ['eip155:1', 'https://rpc.example/k'],
      ['eip155:31337', 'http://127.0.0.1:8545'],
    ]);
    expect(parseEvmRpcUrls(undefined).size).toBe(0);
    expect(parseEvmRpcUrls(' ').size).toBe(0);
  });

  it('refuses a non-eip155 id, a missing or non-http URL and a chain listed twice, naming the variable', () => {
    expect(() => parseEvmRpcUrls('solana:1=https://x')).toThrow(/LATCHKEY_EVM_RPC_URLS: "solana:1" is not an eip155/);
    expect(() => parseEvmRpcUrls('eip155:1')).toThrow(/LATCHKEY_EVM_RPC_URLS: eip155:1 has no valid URL/);
    expect(() => parseEvmRpcUrls('eip155:1=ftp://x')).toThrow(/must be http\(s\)/);
    expect(() => parseEvmRpcUrls('eip155:1=https://a,eip155:1=https://b')).toThrow(/listed twice/);
    expect(() => parseEvmRpcUrls('eip155:01=https://a')).toThrow(/not an eip155/);
  });
});
