/**
 * The coverage probe (issue 16): every method of the unmodified `@turnkey/sdk-server` API client,
 * called with an empty input against a real Latchkey, reaches a route. What it answers (400 for the
 * missing fields, 404 for a missing resource, 403, …) is each feature's own tests' business; here a
 * method fails only when the server has no such endpoint (the HTTP layer's 404 for an unknown route,
 * or the engine's for an unknown submit or query path). The methods are read from the SDK's own
 * generated client, so a new SDK version's methods are probed without editing this file.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TLatchkey } from '@latchkey/testkit';
import { Turnkey } from '@turnkey/sdk-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latchkeyForThisFile } from './shared-platform.js';

/** `[method, path]` of every request method the generated client defines. */
function sdkMethods(): [string, string][] {
  const entry = createRequire(import.meta.url).resolve('@turnkey/sdk-server');
  const source = readFileSync(join(dirname(entry), '__generated__', 'sdk-client-base.js'), 'utf8');
  const found = [...source.matchAll(/this\.(\w+) = async \(input[^)]*\) => \{\s*(?:const \{[^}]*\} = input;\s*)?return this\.(?:command|request|activityDecision)\("([^"]+)"/g)];
  return found.map((m) => [m[1]!, m[2]!]);
}

const THIRD_PARTY = 'a service Turnkey runs with outside partners (swaps, yield, fiat on-ramps, Spark, indexers): out of scope for a self-hosted Latchkey';
const ENCLAVE = 'an attestation from a running TVC enclave: Latchkey runs the TVC control plane, not enclaves';

/**
 * Methods with no route, each with the reason. A method listed here that starts answering fails
 * the test too, so the list stays true.
 */
const NOT_SERVED: Record<string, string> = {
  ...Object.fromEntries(
    [
      'claimEarnFees', 'claimSwapFees', 'createFiatOnRampCredential', 'createSwapQuote', 'deleteFiatOnRampCredential', 'earnDeployWrapper', 'earnDeposit',
      'earnSetWrapperState', 'earnWithdraw', 'executeSwap', 'getClaimEarnFeesStatus', 'getEarnDeployStatus', 'getEarnDepositStatus', 'getEarnWithdrawStatus',
      'getOnRampTransactionStatus', 'getSwapStatus', 'getWalletAddressBalances', 'initFiatOnRamp', 'listEarnEnabledVaults', 'listEarnPositions', 'listEarnVaults',
      'listEthTransactionHistory', 'listFiatOnRampCredentials', 'listSolTransactionHistory', 'listSupportedAssets', 'sparkClaimTransfer',
      'sparkPrepareLightningReceive', 'sparkPrepareTransfer', 'sparkSignFrost', 'updateFiatOnRampCredential', 'upsertSwapConfig',
    ].map((m) => [m, THIRD_PARTY]),
  ),
  ...Object.fromEntries(['getAppProofs', 'getAppStatus', 'getBootProof', 'getLatestBootProof'].map((m) => [m, ENCLAVE])),
  solSendTransaction: 'needs a Solana RPC and its broadcaster; eth_send_transaction is the one send Latchkey runs (issue 15)',
};

let latchkey: TLatchkey;
beforeAll(async () => {
  latchkey = await latchkeyForThisFile({ apps: ['public-api'] });
}, 120_000);
afterAll(async () => {
  await latchkey?.stop();
});

describe('sdk-server coverage', () => {
  const methods = sdkMethods();

  it('reads the whole client (172 methods in @turnkey/sdk-server 8.2, each with its own path)', () => {
    expect(methods.length).toBeGreaterThanOrEqual(172);
    expect(new Set(methods.map(([, path]) => path)).size).toBe(methods.length);
  });

  it('every method reaches an endpoint when called with an empty input', async () => {
    const client = new Turnkey({ apiBaseUrl: latchkey.apiBaseUrl, apiPublicKey: latchkey.apiPublicKey, apiPrivateKey: latchkey.apiPrivateKey, defaultOrganizationId: latchkey.organizationId }).apiClient() as unknown as Record<string, (input: object) => Promise<unknown>>;
    const noEndpoint = async (call: () => Promise<unknown>): Promise<boolean> => {
      try {
        await call();
        return false;
      } catch (error) {
        // The HTTP layer's unknown route, or the engine's unknown submit / query path.
        return /no such endpoint|unknown (activity|query) endpoint/.test((error as Error).message);
      }
    };
    // The check itself: a path the server does not serve is seen as missing.
    const raw = client as unknown as { request(url: string, body: object): Promise<unknown> };
    expect(await noEndpoint(() => raw.request('/public/v1/query/no_such_query', { organizationId: latchkey.organizationId }))).toBe(true);
    const missing: string[] = [];
    for (const [method, path] of methods) if (await noEndpoint(() => client[method]!({}))) missing.push(`${method} ${path}`);
    expect(missing.sort()).toEqual(Object.keys(NOT_SERVED).map((m) => `${m} ${methods.find(([name]) => name === m)?.[1]}`).sort());
  }, 300_000);
});
