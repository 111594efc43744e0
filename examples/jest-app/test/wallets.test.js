const { startLatchkey } = require('@latchkey/testkit');
const { parseEther, parseTransaction, recoverTransactionAddress, serializeTransaction } = require('viem');
const { createUserWallet, signTransaction } = require('../src/wallets.js');

// Starting Latchkey takes a few seconds (much less once its data-folder template is cached).
jest.setTimeout(120_000);

let latchkey;
beforeAll(async () => {
  latchkey = await startLatchkey();
});
afterAll(async () => {
  await latchkey?.stop();
});

test('creates a sub-organization with a wallet and signs a transaction viem verifies', async () => {
  const user = await createUserWallet(latchkey, 'alice');
  expect(user.address).toMatch(/^0x[0-9a-fA-F]{40}$/);

  const unsigned = serializeTransaction({ chainId: 1, type: 'eip1559', nonce: 0, to: '0x000000000000000000000000000000000000dEaD', value: parseEther('0.01'), gas: 21000n, maxFeePerGas: 30_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n });
  const signed = await signTransaction(user, unsigned);

  expect(await recoverTransactionAddress({ serializedTransaction: signed })).toBe(user.address);
  expect(parseTransaction(signed)).toMatchObject({ to: '0x000000000000000000000000000000000000dead', value: parseEther('0.01'), chainId: 1 });
});

test('an OTP e-mail is captured in memory, code included', async () => {
  const { Turnkey } = require('@turnkey/sdk-server');
  const root = new Turnkey({ apiBaseUrl: latchkey.apiBaseUrl, apiPublicKey: latchkey.apiPublicKey, apiPrivateKey: latchkey.apiPrivateKey, defaultOrganizationId: latchkey.organizationId }).apiClient();
  await root.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: 'carol@example.test', appName: 'Jest example' });
  const mail = await latchkey.mail.next();
  expect(mail).toMatchObject({ channel: 'email', to: 'carol@example.test' });
  expect(mail.text).toContain(mail.code);
});
