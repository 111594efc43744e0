/**
 * Policies over decoded contract calls (issue 16 §5): `eth.tx.function_name`,
 * `eth.tx.function_signature`, `eth.tx.contract_call_args[…]` and Solana's
 * `instructions[i].parsed_instruction_data`, present only when the transaction's contract has an
 * uploaded interface its data decodes with; otherwise reading them is an evaluation error.
 */
import { parseAnchorIdl, parseEthereumAbi } from '@latchkey/crypto';
import { Keypair, Transaction as SolanaTransaction, TransactionInstruction } from '@solana/web3.js';
import { Interface, Transaction } from 'ethers';
import { describe, expect, it } from 'vitest';
import { conditionNeeds, createConditionContext } from './context.js';
import { evaluatePolicyExpression } from './evaluator.js';
import { parsePolicyExpression } from './parser.js';

const NOW = new Date('2024-01-01T00:00:00Z');
const TOKEN = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const ALLOWED = '0x1111111111111111111111111111111111111111';
const ERC20 = [{ type: 'function', name: 'transfer', inputs: [{ name: 'dst', type: 'address' }, { name: 'wad', type: 'uint256' }], outputs: [{ name: '', type: 'bool' }], stateMutability: 'nonpayable' }];
const erc20 = parseEthereumAbi(JSON.stringify(ERC20));
const RULE = `eth.tx.function_name == 'transfer' && eth.tx.function_signature == '0xa9059cbb' && eth.tx.contract_call_args['dst'] == '${ALLOWED}' && eth.tx.contract_call_args['wad'] < 1000`;

const ethTx = (data: string, to = TOKEN) => Transaction.from({ type: 2, chainId: 1, nonce: 0, to, value: 0n, data, gasLimit: 60_000, maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }).unsignedSerialized;
const transferData = (dst: string, wad: bigint) => new Interface(ERC20).encodeFunctionData('transfer', [dst, wad]);

function evaluate(condition: string, unsigned: string, type: string, interfaces?: Map<string, ReturnType<typeof parseEthereumAbi> | ReturnType<typeof parseAnchorIdl>>) {
  const context = createConditionContext({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', params: {}, now: NOW, transaction: { type, unsignedTransaction: unsigned }, ...(interfaces ? { contractInterfaces: interfaces } : {}) });
  return evaluatePolicyExpression(parsePolicyExpression(condition), context);
}
const withErc20 = new Map([[TOKEN.toLowerCase(), erc20]]);

describe('eth.tx contract call fields', () => {
  it('an ERC-20 transfer to the allowed recipient below the amount satisfies the rule; another recipient or amount does not', () => {
    expect(evaluate(RULE, ethTx(transferData(ALLOWED, 999n)), 'TRANSACTION_TYPE_ETHEREUM', withErc20)).toEqual({ ok: true, value: true });
    expect(evaluate(RULE, ethTx(transferData('0x2222222222222222222222222222222222222222', 1n)), 'TRANSACTION_TYPE_ETHEREUM', withErc20)).toEqual({ ok: true, value: false });
    expect(evaluate(RULE, ethTx(transferData(ALLOWED, 1000n)), 'TRANSACTION_TYPE_ETHEREUM', withErc20)).toEqual({ ok: true, value: false });
  });

  it('without an interface for `to`, or with calldata it does not decode, the fields are missing: an error, never false', () => {
    const noInterface = evaluate(RULE, ethTx(transferData(ALLOWED, 1n)), 'TRANSACTION_TYPE_ETHEREUM');
    expect(noInterface.ok).toBe(false);
    expect(!noInterface.ok && noInterface.error.kind).toBe('MissingField');
    const otherContract = evaluate(RULE, ethTx(transferData(ALLOWED, 1n), ALLOWED), 'TRANSACTION_TYPE_ETHEREUM', withErc20);
    expect(!otherContract.ok && otherContract.error.kind).toBe('MissingField');
    const undecodable = evaluate(RULE, ethTx(`${transferData(ALLOWED, 1n)}00`), 'TRANSACTION_TYPE_ETHEREUM', withErc20);
    expect(!undecodable.ok && undecodable.error.message).toMatch(/function_name/);
    const plainTransfer = evaluate(RULE, ethTx('0x'), 'TRANSACTION_TYPE_ETHEREUM', withErc20);
    expect(plainTransfer.ok).toBe(false);
  });

  it('an argument the function does not have is a missing field', () => {
    const r = evaluate("eth.tx.contract_call_args['amount'] < 5", ethTx(transferData(ALLOWED, 1n)), 'TRANSACTION_TYPE_ETHEREUM', withErc20);
    expect(!r.ok && r.error.kind).toBe('MissingField');
  });
});

describe('solana.tx parsed_instruction_data', () => {
  const program = Keypair.generate().publicKey;
  const payer = Keypair.generate().publicKey;
  const vault = Keypair.generate().publicKey;
  const idl = parseAnchorIdl(
    JSON.stringify({
      address: program.toBase58(),
      metadata: { name: 'vault', version: '0.1.0', spec: '0.1.0' },
      instructions: [{ name: 'withdraw', discriminator: [1, 2, 3, 4, 5, 6, 7, 8], accounts: [{ name: 'vault', writable: true }, { name: 'owner', signer: true }], args: [{ name: 'amount', type: 'u64' }] }],
    }),
  );
  const tx = (amountBytes: number[]) => {
    const t = new SolanaTransaction({ feePayer: payer, recentBlockhash: Keypair.generate().publicKey.toBase58() });
    t.add(new TransactionInstruction({ programId: program, keys: [{ pubkey: vault, isSigner: false, isWritable: true }, { pubkey: payer, isSigner: true, isWritable: true }], data: Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, ...amountBytes]) }));
    return t.serializeMessage().toString('hex');
  };
  const rule = `solana.tx.instructions[0].parsed_instruction_data.instruction_name == 'withdraw' && solana.tx.instructions[0].parsed_instruction_data.program_call_args['amount'] <= 100 && solana.tx.instructions[0].parsed_instruction_data.named_accounts['vault'] == '${vault.toBase58()}'`;

  it('reads the instruction name, named accounts and arguments decoded with the program IDL', () => {
    const interfaces = new Map([[program.toBase58(), idl]]);
    expect(evaluate(rule, tx([100, 0, 0, 0, 0, 0, 0, 0]), 'TRANSACTION_TYPE_SOLANA', interfaces)).toEqual({ ok: true, value: true });
    expect(evaluate(rule, tx([101, 0, 0, 0, 0, 0, 0, 0]), 'TRANSACTION_TYPE_SOLANA', interfaces)).toEqual({ ok: true, value: false });
    const short = evaluate(rule, tx([100]), 'TRANSACTION_TYPE_SOLANA', interfaces);
    expect(!short.ok && short.error.kind).toBe('MissingField');
  });

  it('without the IDL the field is missing; program ids match case-sensitively', () => {
    const r = evaluate(rule, tx([1, 0, 0, 0, 0, 0, 0, 0]), 'TRANSACTION_TYPE_SOLANA');
    expect(!r.ok && r.error.kind).toBe('MissingField');
    const wrongCase = evaluate(rule, tx([1, 0, 0, 0, 0, 0, 0, 0]), 'TRANSACTION_TYPE_SOLANA', new Map([[program.toBase58().toLowerCase(), idl]]));
    expect(!wrongCase.ok && wrongCase.error.kind).toBe('MissingField');
  });
});

describe('conditionNeeds', () => {
  it('asks for the interface lookup only when a condition reads a decoded field', () => {
    expect(conditionNeeds(["eth.tx.to == '0x1'", "activity.type == 'X'", ''])).toEqual({ contractCalls: false });
    expect(conditionNeeds(["eth.tx.to == '0x1'", RULE])).toEqual({ contractCalls: true });
    expect(conditionNeeds(['solana.tx.instructions.any(i, i.parsed_instruction_data.instruction_name == "x")'])).toEqual({ contractCalls: true });
    expect(conditionNeeds(['eth.tx.function_signature == "0xa9059cbb"'])).toEqual({ contractCalls: true });
  });
});
