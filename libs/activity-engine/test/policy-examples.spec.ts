/**
 * Turnkey's documented example policies (tkhq/docs `features/policies/examples/*`,
 * `features/policies/language.mdx`, `features/policies/time-based-policies.mdx`), each evaluated
 * over request contexts built the way the engine builds them: the expected outcome per context,
 * including the requests a policy must NOT match and the ones where it errors. A second table
 * takes sets of those policies through the engine's decision (`createPolicyEvaluator`): deny wins
 * over allow, the root quorum bypasses both, and a policy whose condition errors does not apply.
 */
import { Keypair, SystemProgram, Transaction as SolanaTransaction } from '@solana/web3.js';
import { Transaction } from 'ethers';
import type { Policy, TRepositories } from '@latchkey/persistence';
import { describe, expect, it } from 'vitest';
import { createActivityRegistry } from '../src/registry.js';
import { approversFrom, createPolicyEvaluator, type TApprover, type TPolicyOutcome, type TPolicyRequest } from '../src/engine/policy-decision.js';
import type { TPolicyEvaluationErrorKind } from '@latchkey/policy';
import { createConditionContext, type TConditionContext, type TConsensusContext } from '@latchkey/policy';
import { evaluatePolicyExpression } from '@latchkey/policy';
import { parsePolicyExpression } from '@latchkey/policy';
import { printPolicyExpression } from '@latchkey/policy';

const USER = '4b894565-fa11-42fc-b813-5bf4ea3d53f9';
const TAG = 'b3f9a3c1-0000-4000-8000-000000000001';
const WALLET = '7f8e9d10-0000-4000-8000-000000000002';
const KEY = '9a8b7c6d-0000-4000-8000-000000000003';
const ALLOWED = '0x08d2b0a37F869FF76BACB5Bab3278E26ab7067B7';
const OTHER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const NOW = new Date('2026-03-15T10:00:00Z');

const approvers = (...users: { id: string; tags?: string[] }[]): TConsensusContext => ({
  approvers: users.map((u) => ({ id: u.id, tags: u.tags ?? [], email: `${u.id}@example.com` })),
  credentials: users.map((u, n) => ({ id: `cred-${n}`, user_id: u.id, type: n === 0 ? 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR' : 'CREDENTIAL_TYPE_API_KEY_P256', public_key: `02${'ab'.repeat(32)}` })),
});

const ethUnsigned = (to: string, value: bigint, data = '0x') =>
  Transaction.from({ type: 2, chainId: 11_155_111n, nonce: 2, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gasLimit: 21_000n, to, value, data, accessList: [] }).unsignedSerialized;

const signEth = (to: string, value: bigint, data?: string): TConditionContext =>
  createConditionContext({
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    params: { type: 'TRANSACTION_TYPE_ETHEREUM' },
    transaction: { type: 'TRANSACTION_TYPE_ETHEREUM', unsignedTransaction: ethUnsigned(to, value, data) },
    now: NOW,
    wallet: { id: WALLET, imported: false, exported: false, label: 'hot' },
    walletAccount: { address: '0xabc' },
  });

const payer = Keypair.fromSeed(new Uint8Array(32).fill(5)).publicKey;
const recipient = Keypair.fromSeed(new Uint8Array(32).fill(8)).publicKey;
const signSolana = (lamports: number, to = recipient): TConditionContext => {
  const tx = new SolanaTransaction({ feePayer: payer, recentBlockhash: Keypair.fromSeed(new Uint8Array(32).fill(9)).publicKey.toBase58() });
  tx.add(SystemProgram.transfer({ fromPubkey: payer, toPubkey: to, lamports }));
  const hex = Buffer.from(tx.serialize({ requireAllSignatures: false, verifySignatures: false })).toString('hex');
  return createConditionContext({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', params: { type: 'TRANSACTION_TYPE_SOLANA' }, transaction: { type: 'TRANSACTION_TYPE_SOLANA', unsignedTransaction: hex }, now: NOW });
};

/** `activity.params` as the engine exposes them: the registered definition's `policyParams`. */
const registry = createActivityRegistry();
const exposed = (type: string, intent: unknown): Record<string, unknown> => registry.byType(type)?.policyParams?.(intent) ?? {};
const activity = (type: string, intent: unknown = {}, extra: Partial<Parameters<typeof createConditionContext>[0]> = {}): TConditionContext =>
  createConditionContext({ type, params: exposed(type, intent), now: NOW, ...extra });

const signRawWithKey = activity('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { signWith: KEY, hashFunction: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' }, {
  privateKey: { id: KEY, tags: [], imported: false, exported: false, label: 'k' },
});

type TExpected = boolean | TPolicyEvaluationErrorKind;

interface TExample {
  name: string;
  expression: string;
  cases: [context: object, expected: TExpected, why: string][];
}

const EXAMPLES: TExample[] = [
  {
    name: 'consensus: a specific approver',
    expression: `approvers.any(user, user.id == '${USER}')`,
    cases: [
      [approvers({ id: USER }), true, 'the user approved'],
      [approvers({ id: 'someone-else' }), false, 'another user approved'],
      [approvers(), false, 'nobody approved'],
    ],
  },
  {
    name: 'consensus: any approver with a tag',
    expression: `approvers.any(user, user.tags.contains('${TAG}'))`,
    cases: [
      [approvers({ id: 'a', tags: [TAG] }), true, 'tagged approver'],
      [approvers({ id: 'a', tags: ['other'] }), false, 'untagged approver'],
    ],
  },
  {
    name: 'consensus: two approvers with a tag',
    expression: `approvers.filter(user, user.tags.contains('${TAG}')).count() >= 2`,
    cases: [
      [approvers({ id: 'a', tags: [TAG] }), false, 'one tagged approver'],
      [approvers({ id: 'a', tags: [TAG] }, { id: 'b', tags: ['x'] }), false, 'one tagged of two'],
      [approvers({ id: 'a', tags: [TAG] }, { id: 'b', tags: ['x', TAG] }), true, 'two tagged approvers'],
    ],
  },
  {
    name: 'consensus: passkeys only',
    expression: "credentials.any(credential, credential.type == 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR')",
    cases: [
      [approvers({ id: 'a' }), true, 'approved with a passkey'],
      [{ approvers: [], credentials: [{ id: 'c', user_id: 'a', type: 'CREDENTIAL_TYPE_API_KEY_P256', public_key: '02' }] }, false, 'API key only'],
    ],
  },
  {
    name: 'condition: resource and action',
    expression: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
    cases: [
      [activity('ACTIVITY_TYPE_CREATE_WALLET'), true, 'create_wallet'],
      [activity('ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS'), true, 'create_wallet_accounts'],
      [activity('ACTIVITY_TYPE_DELETE_WALLETS'), false, 'delete_wallets'],
      [activity('ACTIVITY_TYPE_CREATE_USERS_V3'), false, 'create_users'],
    ],
  },
  {
    name: 'condition: auth and OTP activities with `in`',
    expression: "activity.resource in ['AUTH', 'OTP'] && activity.action in ['CREATE','VERIFY']",
    cases: [
      [activity('ACTIVITY_TYPE_VERIFY_OTP_V2'), true, 'verify_otp'],
      [activity('ACTIVITY_TYPE_STAMP_LOGIN'), true, 'stamp_login'],
      [activity('ACTIVITY_TYPE_CREATE_POLICY_V3'), false, 'create_policy'],
    ],
  },
  {
    name: 'condition: activity kind across versions',
    expression: "activity.kind == 'CREATE_READ_WRITE_SESSION'",
    cases: [
      [activity('ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION'), true, 'v1'],
      [activity('ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2'), true, 'v2'],
      [activity('ACTIVITY_TYPE_STAMP_LOGIN'), false, 'another kind'],
    ],
  },
  {
    name: 'condition: Ethereum recipient allow-list (addresses are lowercase)',
    expression: `eth.tx.to == '${ALLOWED.toLowerCase()}'`,
    cases: [
      [signEth(ALLOWED, 1n), true, 'to the allowed address'],
      [signEth(OTHER, 1n), false, 'to another address'],
      [signRawWithKey, 'MissingField', 'no transaction: eth.tx is absent'],
    ],
  },
  {
    name: 'condition: Ethereum recipient in a list',
    expression: `eth.tx.to in ['${ALLOWED.toLowerCase()}', '${OTHER.toLowerCase()}']`,
    cases: [
      [signEth(OTHER, 0n), true, 'second listed address'],
      [signEth('0x0000000000000000000000000000000000000001', 0n), false, 'unlisted address'],
    ],
  },
  {
    name: 'condition: Ethereum value below 1 ETH, and huge values compare exactly',
    expression: 'eth.tx.value < 1000000000000000000',
    cases: [
      [signEth(ALLOWED, 10n ** 18n - 1n), true, 'just below'],
      [signEth(ALLOWED, 10n ** 18n), false, 'exactly 1 ETH'],
      [signEth(ALLOWED, 2n ** 255n), false, 'a 256-bit value'],
    ],
  },
  {
    name: 'condition: Ethereum value beyond i128 against a u256 literal',
    expression: 'eth.tx.value >= 57896044618658097711785492504343953926634992332820282019728792003956564819968',
    cases: [
      [signEth(ALLOWED, 2n ** 255n), true, '2^255'],
      [signEth(ALLOWED, 2n ** 255n - 1n), false, '2^255 - 1'],
    ],
  },
  {
    name: 'condition: ERC-20 transfer selector by calldata slicing',
    expression: `eth.tx.to == '${ALLOWED.toLowerCase()}' && eth.tx.data[0..10] == '0xa9059cbb'`,
    cases: [
      [signEth(ALLOWED, 0n, `0xa9059cbb${'00'.repeat(64)}`), true, 'transfer(address,uint256)'],
      [signEth(ALLOWED, 0n, `0x095ea7b3${'00'.repeat(64)}`), false, 'approve'],
      [signEth(ALLOWED, 0n, '0x'), 'IndexOutOfBounds', 'no calldata to slice'],
    ],
  },
  {
    name: 'condition: Sepolia only and an early nonce',
    expression: 'eth.tx.chain_id == 11155111 && eth.tx.nonce <= 3',
    cases: [[signEth(ALLOWED, 0n), true, 'sepolia, nonce 2']],
  },
  {
    name: 'condition: a specific wallet',
    expression: `wallet.id == '${WALLET}'`,
    cases: [
      [signEth(ALLOWED, 0n), true, 'signing with the wallet'],
      [signRawWithKey, 'MissingField', 'signing with a private key: no wallet'],
    ],
  },
  {
    name: 'condition: a specific private key',
    expression: `private_key.id == '${KEY}'`,
    cases: [
      [signRawWithKey, true, 'signing with the key'],
      [signEth(ALLOWED, 0n), 'MissingField', 'signing with a wallet: no private key'],
    ],
  },
  {
    name: 'condition: wallet or private key always errors (docs: no short-circuit)',
    expression: `wallet.id == '${WALLET}' || private_key.id == '${KEY}'`,
    cases: [
      [signEth(ALLOWED, 0n), 'MissingField', 'wallet signing'],
      [signRawWithKey, 'MissingField', 'private-key signing'],
    ],
  },
  {
    name: 'condition: deny NO_OP raw payload signing unless EIP-712',
    expression: "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' && activity.params.hash_function == 'HASH_FUNCTION_NO_OP' && activity.params.encoding != 'PAYLOAD_ENCODING_EIP712'",
    cases: [
      [signRawWithKey, true, 'NO_OP over hex'],
      [activity('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { hashFunction: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_EIP712' }), false, 'NO_OP over EIP-712'],
      [activity('ACTIVITY_TYPE_CREATE_WALLET'), 'MissingField', 'no such params on create_wallet'],
    ],
  },
  {
    name: 'condition: a user may delete only themselves',
    expression: `activity.type == 'ACTIVITY_TYPE_DELETE_USERS' && activity.params.user_ids.count() == 1 && '${USER}' in activity.params.user_ids`,
    cases: [
      [activity('ACTIVITY_TYPE_DELETE_USERS', { userIds: [USER] }), true, 'only themselves'],
      [activity('ACTIVITY_TYPE_DELETE_USERS', { userIds: [USER, 'other'] }), false, 'themselves and another'],
      [activity('ACTIVITY_TYPE_DELETE_USERS', { userIds: ['other'] }), false, 'another user'],
    ],
  },
  {
    name: 'condition: Solana transfers all to one recipient',
    expression: `solana.tx.transfers.all(transfer, transfer.to == '${recipient.toBase58()}')`,
    cases: [
      [signSolana(1_000), true, 'to the recipient'],
      [signSolana(1_000, payer), false, 'back to the payer'],
      [signEth(ALLOWED, 0n), 'MissingField', 'an Ethereum transaction'],
    ],
  },
  {
    name: 'condition: exactly one Solana transfer, below 1 SOL',
    expression: 'solana.tx.transfers.count() == 1 && solana.tx.transfers[0].amount < 1000000000',
    cases: [
      [signSolana(999_999_999), true, 'just below 1 SOL'],
      [signSolana(1_000_000_000), false, '1 SOL'],
    ],
  },
  {
    name: 'condition: only the System Program',
    expression: "solana.tx.program_keys.all(p, p == '11111111111111111111111111111111')",
    cases: [[signSolana(1), true, 'a plain transfer']],
  },
  {
    name: 'time: a one-shot window (start-inclusive, end-exclusive)',
    expression: "time.now >= Timestamp('2026-03-01T00:00:00Z') && time.now < Timestamp('2026-04-01T00:00:00Z')",
    cases: [
      [activity('ACTIVITY_TYPE_SIGN_TRANSACTION_V2'), true, 'mid-March'],
      [createConditionContext({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', params: {}, now: new Date('2026-04-01T00:00:00Z') }), false, 'the end instant'],
      [createConditionContext({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', params: {}, now: new Date('2026-03-01T00:00:00Z') }), true, 'the start instant'],
    ],
  },
];

describe("Turnkey's example policies", () => {
  for (const example of EXAMPLES) {
    describe(example.name, () => {
      const tree = parsePolicyExpression(example.expression);

      it('round-trips through the printer', () => {
        expect(parsePolicyExpression(printPolicyExpression(tree))).toEqual(tree);
      });

      for (const [context, expected, why] of example.cases) {
        it(`${why} → ${String(expected)}`, () => {
          const r = evaluatePolicyExpression(tree, context);
          expect(r.ok ? r.value : r.error.kind).toBe(expected);
        });
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Sets of the example policies, decided as the engine decides (protocol notes §7: root quorum,
// then deny, then allow, then implicit deny).
// ---------------------------------------------------------------------------------------------

const ORG = 'c0ffee00-0000-4000-8000-000000000010';
const ROOT = 'c0ffee00-0000-4000-8000-000000000011';

type TPolicySpec = Pick<Policy, 'id' | 'effect' | 'condition' | 'consensus'>;

/** Just what the evaluator reads: the organization (1-of-1 root quorum of ROOT) and its policies. */
const repositoriesWith = (policies: readonly TPolicySpec[]): TRepositories =>
  ({
    organizations: {
      findById: async () => ({ id: ORG, parentOrganizationId: null, name: 'org', rootQuorumThreshold: 1, createdAt: NOW, updatedAt: NOW, deletedAt: null }),
      rootQuorumMembers: async () => [{ organizationId: ORG, userId: ROOT, createdAt: NOW }],
    },
    policies: { list: async () => policies.map((p): Policy => ({ ...p, organizationId: ORG, name: p.id, notes: '', createdAt: NOW, updatedAt: NOW })) },
  }) as unknown as TRepositories;

const approver = (userId: string): TApprover => ({ userId, email: null, name: userId, tags: [], credential: { id: `key-${userId}`, type: 'CREDENTIAL_TYPE_API_KEY_P256', publicKey: `02${'ab'.repeat(32)}` } });

/** The request the engine builds for `context`, initiated by the first approver (or USER). */
const requestFor = (context: TConditionContext, initiator: string): TPolicyRequest => ({
  principal: { organizationId: ORG, userId: initiator, credential: { kind: 'attested', publicKey: '', scheme: '', signature: '' } },
  organizationId: ORG,
  activity: { type: context.activity.type, kind: context.activity.kind, resource: context.activity.resource ?? '', action: context.activity.action ?? '', params: context.activity.params, selfService: false },
});

interface TPolicySetExample {
  name: string;
  policies: TPolicySpec[];
  cases: [context: TConditionContext, approvers: string[], expected: { outcome: TPolicyOutcome; deciding: string[] }, why: string][];
}

const ALLOW_CREATE = { id: 'allow-wallet-create', effect: 'EFFECT_ALLOW', condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'", consensus: `approvers.any(user, user.id == '${USER}')` };
const DENY_CREATE_WALLET = { id: 'deny-create-wallet', effect: 'EFFECT_DENY', condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'", consensus: '' };

const POLICY_SETS: TPolicySetExample[] = [
  {
    name: 'deny wins over allow',
    policies: [ALLOW_CREATE, DENY_CREATE_WALLET],
    cases: [
      [activity('ACTIVITY_TYPE_CREATE_WALLET'), [USER], { outcome: 'OUTCOME_DENY_EXPLICIT', deciding: ['deny-create-wallet'] }, 'both apply and the allow is met: the deny decides'],
      [activity('ACTIVITY_TYPE_CREATE_WALLET'), ['someone-else'], { outcome: 'OUTCOME_DENY_EXPLICIT', deciding: ['deny-create-wallet'] }, 'the allow still needs approvals: no waiting, denied'],
      [activity('ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS'), [USER], { outcome: 'OUTCOME_ALLOW', deciding: ['allow-wallet-create'] }, 'only the allow applies'],
      [activity('ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS'), ['someone-else'], { outcome: 'OUTCOME_REQUIRES_CONSENSUS', deciding: ['allow-wallet-create'] }, 'only the allow applies, its approver has not approved'],
      [activity('ACTIVITY_TYPE_CREATE_WALLET'), [ROOT], { outcome: 'OUTCOME_ALLOW', deciding: [] }, 'the root quorum bypasses the deny'],
      [activity('ACTIVITY_TYPE_CREATE_USERS_V3'), [USER], { outcome: 'OUTCOME_DENY_IMPLICIT', deciding: [] }, 'neither applies'],
    ],
  },
  {
    name: 'deny wins whatever the order and the allow',
    policies: [DENY_CREATE_WALLET, { id: 'allow-all', effect: 'EFFECT_ALLOW', condition: '', consensus: '' }],
    cases: [
      [activity('ACTIVITY_TYPE_CREATE_WALLET'), [USER], { outcome: 'OUTCOME_DENY_EXPLICIT', deciding: ['deny-create-wallet'] }, 'an unconditional allow does not beat it'],
      [activity('ACTIVITY_TYPE_DELETE_WALLETS'), [USER], { outcome: 'OUTCOME_ALLOW', deciding: ['allow-all'] }, 'the deny does not apply'],
    ],
  },
  {
    name: 'a deny whose condition errors does not apply (missing field)',
    policies: [
      { id: 'deny-other-key', effect: 'EFFECT_DENY', condition: `private_key.id != '${KEY}'`, consensus: '' },
      { id: 'allow-sign', effect: 'EFFECT_ALLOW', condition: "activity.action == 'SIGN'", consensus: '' },
    ],
    cases: [
      [signEth(ALLOWED, 0n), [USER], { outcome: 'OUTCOME_ALLOW', deciding: ['allow-sign'] }, 'wallet signing: private_key is missing, the deny errors'],
      [signRawWithKey, [USER], { outcome: 'OUTCOME_ALLOW', deciding: ['allow-sign'] }, 'signing with the key: the deny is false'],
      [
        activity('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', {}, { privateKey: { id: 'another-key', tags: [], imported: false, exported: false, label: 'other' } }),
        [USER],
        { outcome: 'OUTCOME_DENY_EXPLICIT', deciding: ['deny-other-key'] },
        'signing with another key: the deny applies and wins',
      ],
    ],
  },
];

describe("sets of Turnkey's example policies, decided by the engine", () => {
  const evaluator = createPolicyEvaluator();
  for (const example of POLICY_SETS) {
    describe(example.name, () => {
      for (const [context, ids, expected, why] of example.cases) {
        it(`${why} → ${expected.outcome}`, async () => {
          const decision = await evaluator.evaluate(requestFor(context, ids[0] ?? USER), repositoriesWith(example.policies), approversFrom(ids.map(approver)), async () => context as unknown as Record<string, unknown>);
          expect({ outcome: decision.outcome, deciding: decision.decidingPolicyIds }).toEqual(expected);
        });
      }
    });
  }
});
