/**
 * The gas station: the checked-in bytecode is what LatchkeyGasStation.sol compiles to with the
 * pinned solc (recompiled here), and every encoder agrees with ethers 6, an independent
 * implementation: the CREATE2 address, the EIP-712 digest, the `execute` call data, the EIP-7702
 * authorization and the type-4 transaction.
 */
import { Interface, Signature, Transaction, TypedDataEncoder, type TransactionLike, getCreate2Address, keccak256, recoverAddress, verifyAuthorization, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { decodeRlp, type TRlpItem } from '../rlp.js';
import { GAS_STATION_INIT_CODE, GAS_STATION_SOLC_VERSION } from './gas-station-bytecode.js';
import {
  CREATE2_DEPLOYER,
  encodeEip7702Unsigned,
  encodeGasStationExecute,
  gasStationAddress,
  gasStationDeployData,
  gasStationExecuteDigest,
  signEip7702Authorization,
  signGasStationCall,
} from './gas-station.js';

const KEY = Buffer.from('22'.repeat(32), 'hex');
const account = new Wallet(`0x${'22'.repeat(32)}`).address;
const call = { chainId: 31337n, account, to: '0x000000000000000000000000000000000000bEEF', value: 7n, data: '0xdeadbeef01', nonce: 3n, deadline: 1_900_000_000n };

describe('gas-station bytecode', () => {
  it('is what the source compiles to with the pinned solc', async () => {
    const mod = (await import('./compile-gas-station.mjs' as string)) as { compileGasStation(): { version: string; bytecode: string } };
    const { version, bytecode } = mod.compileGasStation();
    expect(version).toBe(GAS_STATION_SOLC_VERSION);
    expect(bytecode).toBe(GAS_STATION_INIT_CODE);
  }, 120_000);
});

describe('gas-station encoders (against ethers)', () => {
  it('CREATE2 address and deploy data', () => {
    expect(gasStationAddress()).toBe(getCreate2Address(CREATE2_DEPLOYER, `0x${'00'.repeat(32)}`, keccak256(GAS_STATION_INIT_CODE)));
    expect(gasStationDeployData()).toBe(`0x${'00'.repeat(32)}${GAS_STATION_INIT_CODE.slice(2)}`);
  });

  it('the EIP-712 digest, and the signature recovers to the account', () => {
    const domain = { name: 'LatchkeyGasStation', version: '1', chainId: call.chainId, verifyingContract: account };
    const types = { Execute: [{ name: 'to', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'data', type: 'bytes' }, { name: 'nonce', type: 'uint256' }, { name: 'deadline', type: 'uint256' }] };
    const expected = TypedDataEncoder.hash(domain, types, { to: call.to, value: call.value, data: call.data, nonce: call.nonce, deadline: call.deadline });
    expect(`0x${Buffer.from(gasStationExecuteDigest(call)).toString('hex')}`).toBe(expected);
    const sig = signGasStationCall(KEY, call);
    expect(recoverAddress(expected, Signature.from(sig))).toBe(account);
    expect(BigInt(`0x${sig.slice(2 + 64, 2 + 128)}`) <= 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n).toBe(true);
  });

  it('execute call data', () => {
    const signature = signGasStationCall(KEY, call);
    const iface = new Interface(['function execute(address to, uint256 value, bytes data, uint256 nonce, uint256 deadline, bytes signature) returns (bytes)']);
    for (const data of ['0x', '0xdeadbeef01', `0x${'ab'.repeat(64)}`]) {
      expect(encodeGasStationExecute({ ...call, data, signature })).toBe(iface.encodeFunctionData('execute', [call.to, call.value, data, call.nonce, call.deadline, signature]));
    }
  });

  it('the EIP-7702 authorization verifies to the account; the type-4 bytes are ethers’', () => {
    const station = gasStationAddress();
    const tuple = signEip7702Authorization(KEY, { chainId: 31337n, address: station, nonce: 5n }) as Uint8Array[];
    const num = (b: Uint8Array) => (b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b).toString('hex')}`));
    const word = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex').padStart(64, '0')}`;
    const signature = Signature.from({ r: word(tuple[4]!), s: word(tuple[5]!), yParity: Number(num(tuple[3]!)) as 0 | 1 });
    const auth = { address: station, nonce: num(tuple[2]!), chainId: num(tuple[0]!), signature };
    expect(verifyAuthorization({ address: station, nonce: 5n, chainId: 31337n }, signature)).toBe(account);
    const fields = { chainId: 31337n, nonce: 9n, maxPriorityFeePerGas: 1n, maxFeePerGas: 3_000_000_000n, gasLimit: 200_000n, to: account, value: 0n, data: '0x1234' };
    const ours = encodeEip7702Unsigned({ ...fields, authorizationList: [tuple as TRlpItem] });
    const like: TransactionLike = { type: 4, ...fields, nonce: Number(fields.nonce), accessList: [], authorizationList: [auth] };
    const theirs = Transaction.from(like);
    expect(`0x${ours}`).toBe(theirs.unsignedSerialized);
    expect(Array.isArray(decodeRlp(Buffer.from(ours.slice(2), 'hex')))).toBe(true);
  });
});
