/**
 * Smart contract interfaces end to end (issue 16 §5), through the unmodified `@turnkey/sdk-server`:
 * create / get / list / delete with their refusals (not an ABI, not an IDL, over 400 kB, a second
 * interface for the same contract, a bad address), and policies that read decoded calls — an
 * ERC-20 `transfer` allowed only to one recipient and below an amount via sign_transaction, denied
 * for another recipient, a larger amount, a contract without an interface and undecodable calldata;
 * and a Solana program instruction decoded with its Anchor IDL.
 */
import { Keypair, PublicKey, Transaction as SolanaTransaction, TransactionInstruction } from '@solana/web3.js';
import type { TLatchkey } from '@latchkey/testkit';
import { Interface, Transaction } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountParams, uniqueName } from './e2e-helpers.js';
import { policyE2e, refusal, type TKeyPair, type TMember } from './policy-e2e-helpers.js';
import { latchkeyForThisFile } from './shared-platform.js';

let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
const sdk = (key: TKeyPair) => e2e.sdk(key);

/** USDC's mainnet address in its EIP-55 spelling: stored and matched lowercase. */
const TOKEN = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const OTHER_TOKEN = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const ALLOWED = '0x1111111111111111111111111111111111111111';
const STRANGER = '0x2222222222222222222222222222222222222222';
const ERC20_ABI = [
  { type: 'function', name: 'transfer', stateMutability: 'nonpayable', inputs: [{ name: 'dst', type: 'address' }, { name: 'wad', type: 'uint256' }], outputs: [{ name: '', type: 'bool' }] },
  { type: 'function', name: 'approve', stateMutability: 'nonpayable', inputs: [{ name: 'guy', type: 'address' }, { name: 'wad', type: 'uint256' }], outputs: [{ name: '', type: 'bool' }] },
  { type: 'event', name: 'Transfer', anonymous: false, inputs: [{ name: 'src', type: 'address', indexed: true }, { name: 'dst', type: 'address', indexed: true }, { name: 'wad', type: 'uint256', indexed: false }] },
];
const erc20 = new Interface(ERC20_ABI);
const ETHEREUM = 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM' as const;
const SOLANA = 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA' as const;

const createInterface = (p: { address: string; json: string; type?: typeof ETHEREUM | typeof SOLANA; label?: string; notes?: string }) =>
  sdk(e2e.rootKey).createSmartContractInterface({
    smartContractAddress: p.address,
    smartContractInterface: p.json,
    type: p.type ?? ETHEREUM,
    label: p.label ?? uniqueName('abi'),
    ...(p.notes !== undefined ? { notes: p.notes } : {}),
  });
const listIds = async () => (await sdk(e2e.rootKey).getSmartContractInterfaces({})).smartContractInterfaces.map((i) => i.smartContractInterfaceId);

beforeAll(async () => {
  // A wait for readiness, not a speed assertion: on a loaded 2-core machine the four apps took 63 s to listen.
  latchkey = await latchkeyForThisFile({ apps: ['public-api'], timeoutMs: 170_000 });
  e2e = policyE2e(latchkey);
}, 180_000);

afterAll(async () => {
  await latchkey?.stop();
});

describe('create, get, list, delete', () => {
  it('stores an ABI keyed by its contract address (lowercase), returns it exactly as uploaded, and deletes it', async () => {
    const json = JSON.stringify(ERC20_ABI);
    const label = uniqueName('usdc');
    const { smartContractInterfaceId: id } = await createInterface({ address: TOKEN, json, label, notes: 'ERC-20' });
    const { smartContractInterface: got } = await sdk(e2e.rootKey).getSmartContractInterface({ smartContractInterfaceId: id });
    expect(got).toMatchObject({ organizationId: e2e.orgId, smartContractInterfaceId: id, smartContractAddress: TOKEN.toLowerCase(), smartContractInterface: json, type: ETHEREUM, label, notes: 'ERC-20' });
    expect(Object.keys(got).sort()).toEqual(['createdAt', 'label', 'notes', 'organizationId', 'smartContractAddress', 'smartContractInterface', 'smartContractInterfaceId', 'type', 'updatedAt']);
    expect(Number(got.createdAt.seconds)).toBeGreaterThan(1_700_000_000);
    expect(await listIds()).toContain(id);

    const deleted = await sdk(e2e.rootKey).deleteSmartContractInterface({ smartContractInterfaceId: id });
    expect(deleted.smartContractInterfaceId).toBe(id);
    expect(deleted.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await refusal(sdk(e2e.rootKey).getSmartContractInterface({ smartContractInterfaceId: id }))).codes).toContain('NOT_FOUND');
    expect(await listIds()).not.toContain(id);
    const again = await refusal(sdk(e2e.rootKey).deleteSmartContractInterface({ smartContractInterfaceId: id }));
    expect(again.code).toBe(5);
    expect(again.fields).toMatchObject({ field: 'smartContractInterfaceId' });
  });

  it('refuses what is not an ABI or an IDL, over 400 kB, a second interface for a contract and a bad address — with 4xx naming the field, writing nothing', async () => {
    const before = await listIds();
    const notAbi = await refusal(createInterface({ address: OTHER_TOKEN, json: JSON.stringify([{ type: 'function', name: 'transfer', inputs: [{ name: 'dst', type: 'address256' }] }]) }));
    expect(notAbi.code).toBe(3);
    expect(notAbi.message).toMatch(/smartContractInterface is not an Ethereum ABI: ABI entry 0 \(transfer\)/);
    expect(notAbi.fields).toMatchObject({ field: 'smartContractInterface' });
    expect((await refusal(createInterface({ address: OTHER_TOKEN, json: '{"not":"an array"}' }))).message).toMatch(/JSON array/);
    expect((await refusal(createInterface({ address: OTHER_TOKEN, json: '[{"type":"function"' }))).message).toMatch(/not JSON/);

    const notIdl = await refusal(createInterface({ address: Keypair.generate().publicKey.toBase58(), type: SOLANA, json: JSON.stringify({ instructions: [{ name: 'x', accounts: [], args: [{ name: 'a', type: 'u63' }] }] }) }));
    expect(notIdl.code).toBe(3);
    expect(notIdl.message).toMatch(/not a Solana Anchor IDL: .*unknown type u63/);

    // Valid JSON padded with whitespace: exactly 400 kB is accepted, one byte more is refused.
    const json = JSON.stringify(ERC20_ABI);
    const padded = (bytes: number) => `[${' '.repeat(bytes - json.length)}${json.slice(1)}`;
    const tooLarge = await refusal(createInterface({ address: OTHER_TOKEN, json: padded(400 * 1024 + 1) }));
    expect(tooLarge.code).toBe(3);
    expect(tooLarge.message).toMatch(/smartContractInterface.*at most 409600 bytes \(400 kB\)/);
    const atLimit = await createInterface({ address: OTHER_TOKEN, json: padded(400 * 1024) });
    expect((await sdk(e2e.rootKey).getSmartContractInterface({ smartContractInterfaceId: atLimit.smartContractInterfaceId })).smartContractInterface.smartContractInterface).toHaveLength(400 * 1024);
    await sdk(e2e.rootKey).deleteSmartContractInterface({ smartContractInterfaceId: atLimit.smartContractInterfaceId });

    const badAddress = await refusal(createInterface({ address: '0x1234', json: JSON.stringify(ERC20_ABI) }));
    expect(badAddress.message).toMatch(/smartContractAddress/);
    expect((await refusal(createInterface({ address: TOKEN, type: SOLANA, json: '{}' }))).message).toMatch(/smartContractAddress: must be a base58 program id/);

    const { smartContractInterfaceId: first } = await createInterface({ address: OTHER_TOKEN.toLowerCase(), json: JSON.stringify(ERC20_ABI) });
    const duplicate = await refusal(createInterface({ address: OTHER_TOKEN, json: JSON.stringify(ERC20_ABI) }));
    expect(duplicate.code).toBe(6);
    expect(duplicate.message).toContain(`already has a smart contract interface for ${OTHER_TOKEN.toLowerCase()}`);
    expect(duplicate.fields).toMatchObject({ field: 'smartContractAddress' });
    expect(await listIds()).toEqual([...before, first]);
    await sdk(e2e.rootKey).deleteSmartContractInterface({ smartContractInterfaceId: first });
  });
});

describe('policies over decoded ERC-20 calls (sign_transaction)', () => {
  let signer: TMember;
  let from: string;
  let policyId: string;
  let interfaceId: string;
  const LIMIT = 1_000_000n;
  const unsigned = (to: string, data: string) => Transaction.from({ type: 2, chainId: 1, nonce: 0, to, value: 0n, data, gasLimit: 60_000, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n }).unsignedSerialized.slice(2);
  const transfer = (dst: string, wad: bigint) => erc20.encodeFunctionData('transfer', [dst, wad]);
  const sign = (to: string, data: string) => sdk(signer.key).signTransaction({ signWith: from, type: 'TRANSACTION_TYPE_ETHEREUM', unsignedTransaction: unsigned(to, data) });

  beforeAll(async () => {
    signer = await e2e.member('erc20-signer');
    from = (await sdk(e2e.rootKey).createWallet({ walletName: uniqueName('erc20'), accounts: [accountParams(0)] })).addresses[0]!;
    ({ smartContractInterfaceId: interfaceId } = await createInterface({ address: TOKEN, json: JSON.stringify(ERC20_ABI) }));
    ({ policyId } = await sdk(e2e.rootKey).createPolicy({
      policyName: uniqueName('erc20-transfer'),
      effect: 'EFFECT_ALLOW',
      notes: 'USDC only to the treasury, below 1 USDC',
      condition: `activity.action == 'SIGN' && eth.tx.to == '${TOKEN.toLowerCase()}' && eth.tx.function_name == 'transfer' && eth.tx.function_signature == '0xa9059cbb' && eth.tx.contract_call_args['dst'] == '${ALLOWED}' && eth.tx.contract_call_args['wad'] < ${LIMIT}`,
      consensus: `approvers.any(user, user.id == '${signer.userId}')`,
    }));
  });

  it('a transfer to the allowed recipient below the amount is signed', async () => {
    const ok = await sign(TOKEN, transfer(ALLOWED, LIMIT - 1n));
    expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(ok.signedTransaction).toMatch(/^02/);
    const evals = (await e2e.http(e2e.rootKey).getPolicyEvaluations({ organizationId: e2e.orgId, activityId: ok.activity.id })).policyEvaluations[0]!.policyEvaluations as { policyId: string; outcome: string }[];
    expect(evals.find((e) => e.policyId === policyId)?.outcome).toBe('OUTCOME_ALLOW');
  });

  it('another recipient, or the amount at the limit, is denied', async () => {
    expect((await refusal(sign(TOKEN, transfer(STRANGER, 1n)))).message).toContain('OUTCOME_DENY_IMPLICIT');
    const tooMuch = await refusal(sign(TOKEN, transfer(ALLOWED, LIMIT)));
    expect(tooMuch.code).toBe(7);
    expect(tooMuch.message).toContain('OUTCOME_DENY_IMPLICIT');
    // The decoded call is what is judged, not the raw bytes: approve() to the allowed address is not a transfer.
    expect((await refusal(sign(TOKEN, erc20.encodeFunctionData('approve', [ALLOWED, 1n])))).message).toContain('OUTCOME_DENY_IMPLICIT');
  });

  it('a contract without an interface, or calldata the ABI does not decode, leaves the fields missing: the policy errors and the request is denied', async () => {
    const policyAtOther = await sdk(e2e.rootKey).createPolicy({
      policyName: uniqueName('other-token'),
      effect: 'EFFECT_ALLOW',
      notes: '',
      condition: `eth.tx.to == '${OTHER_TOKEN.toLowerCase()}' && eth.tx.contract_call_args['dst'] == '${ALLOWED}'`,
      consensus: `approvers.any(user, user.id == '${signer.userId}')`,
    });
    const noInterface = await refusal(sign(OTHER_TOKEN, transfer(ALLOWED, 1n)));
    expect(noInterface.message).toContain('OUTCOME_DENY_IMPLICIT');
    expect(noInterface.message).toMatch(new RegExp(`${policyAtOther.policyId} \\(condition: missing field 'eth\\.tx\\.contract_call_args'\\)`));

    const trailingByte = await refusal(sign(TOKEN, `${transfer(ALLOWED, 1n)}00`));
    expect(trailingByte.message).toMatch(new RegExp(`${policyId} \\(condition: missing field 'eth\\.tx\\.function_name'\\)`));
    const dirtyPadding = `0xa9059cbb${'ff'.repeat(12)}${ALLOWED.slice(2)}${(1n).toString(16).padStart(64, '0')}`;
    expect((await refusal(sign(TOKEN, dirtyPadding))).message).toMatch(/missing field 'eth\.tx\.function_name'/);
    expect((await refusal(sign(TOKEN, '0xa9059cbb'))).message).toMatch(/missing field 'eth\.tx\.function_name'/);
    await sdk(e2e.rootKey).deletePolicy({ policyId: policyAtOther.policyId });
  });

  it('once the interface is deleted, the call that was allowed is denied', async () => {
    await sdk(e2e.rootKey).deleteSmartContractInterface({ smartContractInterfaceId: interfaceId });
    expect((await refusal(sign(TOKEN, transfer(ALLOWED, 1n)))).message).toMatch(/missing field 'eth\.tx\.function_name'/);
    await sdk(e2e.rootKey).deletePolicy({ policyId });
  });
});

describe('policies over decoded Solana instructions', () => {
  it('reads parsed_instruction_data of a program with an uploaded Anchor IDL; without it the field is missing', async () => {
    const signer = await e2e.member('sol-signer');
    const { addresses } = await sdk(e2e.rootKey).createWallet({
      walletName: uniqueName('sol'),
      accounts: [{ curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' }],
    });
    const payer = new PublicKey(addresses[0]!);
    const program = Keypair.generate().publicKey;
    const vault = Keypair.generate().publicKey;
    const idl = {
      address: program.toBase58(),
      metadata: { name: 'vault', version: '0.1.0', spec: '0.1.0' },
      instructions: [{ name: 'withdraw', discriminator: [183, 18, 70, 156, 148, 109, 161, 34], accounts: [{ name: 'vault', writable: true }, { name: 'owner', signer: true }], args: [{ name: 'amount', type: 'u64' }] }],
    };
    const withdraw = (amount: bigint) => {
      const data = Buffer.alloc(16);
      Buffer.from(idl.instructions[0]!.discriminator).copy(data);
      data.writeBigUInt64LE(amount, 8);
      const tx = new SolanaTransaction({ feePayer: payer, recentBlockhash: Keypair.generate().publicKey.toBase58() });
      tx.add(new TransactionInstruction({ programId: program, keys: [{ pubkey: vault, isSigner: false, isWritable: true }, { pubkey: payer, isSigner: true, isWritable: true }], data }));
      return sdk(signer.key).signTransaction({ signWith: payer.toBase58(), type: 'TRANSACTION_TYPE_SOLANA', unsignedTransaction: tx.serializeMessage().toString('hex') });
    };
    const { policyId } = await sdk(e2e.rootKey).createPolicy({
      policyName: uniqueName('vault-withdraw'),
      effect: 'EFFECT_ALLOW',
      notes: '',
      condition: `solana.tx.instructions.count() == 1 && solana.tx.instructions[0].parsed_instruction_data.instruction_name == 'withdraw' && solana.tx.instructions[0].parsed_instruction_data.program_call_args['amount'] <= 100 && solana.tx.instructions[0].parsed_instruction_data.named_accounts['vault'] == '${vault.toBase58()}'`,
      consensus: `approvers.any(user, user.id == '${signer.userId}')`,
    });
    expect((await refusal(withdraw(1n))).message).toMatch(/missing field 'solana\.tx\.instructions\[0\]\.parsed_instruction_data'/);

    const { smartContractInterfaceId } = await createInterface({ address: program.toBase58(), type: SOLANA, json: JSON.stringify(idl) });
    expect((await withdraw(100n)).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await refusal(withdraw(101n))).message).toContain('OUTCOME_DENY_IMPLICIT');
    await sdk(e2e.rootKey).deleteSmartContractInterface({ smartContractInterfaceId });
    await sdk(e2e.rootKey).deletePolicy({ policyId });
  });
});
