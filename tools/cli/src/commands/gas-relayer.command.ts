/**
 * `latchkey gas relayer --chain eip155:N`: the account that submits sponsored transactions and pays
 * their gas (made on first use, its key sealed in the vault), the gas station's address, and — when
 * LATCHKEY_EVM_RPC_URLS configures the chain — the relayer's balance there. The operator funds the
 * relayer on each chain it sponsors; it is the same address on every chain.
 */
import { gasStationAddress, parseEvmRpcUrls, createEvmRpc, rpcQuantity, EVM_RPC_URLS_VARIABLE } from '@latchkey/crypto';
import { parseConfig, type TConfig } from '@latchkey/domain';
import { createStore, openDatabase } from '@latchkey/persistence';
import { assertVaultKey, ensureGasRelayer, loadVault } from '@latchkey/platform';
import { defineCommand } from '../cli-command.js';
import { openMigratedDatabase } from '../database-setup.js';
import { UsageError } from '../usage-error.js';

/** @throws UsageError unless `raw` is an eip155:<chainId> CAIP-2 id */
export function parseChain(raw: string | undefined): string {
  if (raw === undefined || !/^eip155:[1-9][0-9]{0,18}$/.test(raw.trim())) throw new UsageError(`--chain must be an eip155:<chainId> CAIP-2 id, e.g. eip155:1, got ${JSON.stringify(raw)}`);
  return raw.trim();
}

export async function gasRelayerCommand(config: TConfig, env: NodeJS.ProcessEnv, chain: string): Promise<Record<string, unknown>> {
  const database = await openMigratedDatabase(config, { reuseRunning: true, log: () => undefined });
  const db = openDatabase(database.url, { max: 2 });
  try {
    const vault = await loadVault(config);
    const store = createStore(db.prisma);
    await assertVaultKey(store, vault);
    const relayer = await ensureGasRelayer(store, vault);
    const url = parseEvmRpcUrls(env[EVM_RPC_URLS_VARIABLE]).get(chain);
    const out: Record<string, unknown> = { chain, relayer: relayer.address, gasStation: gasStationAddress() };
    if (url === undefined) return { ...out, balanceWei: null, note: `${chain} is not in ${EVM_RPC_URLS_VARIABLE}: sponsored sends there are refused until it is` };
    const balance = rpcQuantity(await createEvmRpc(chain, url).call('eth_getBalance', [relayer.address, 'latest']), 'balance');
    return { ...out, balanceWei: balance.toString() };
  } finally {
    await db.close();
    await database.release();
  }
}

export const gasRelayer = defineCommand<{ chain?: string }>({
  name: 'gas relayer',
  summary: "show the gas relayer's address (fund it to sponsor transactions) and its balance on a chain",
  details:
    'Prints {"chain", "relayer", "gasStation", "balanceWei"}: the account that submits sponsored transactions and pays their gas (the same on every chain; made on first use, its key sealed in the vault), the gas station contract sponsored accounts delegate to, and the relayer\'s balance on the chain when LATCHKEY_EVM_RPC_URLS configures it.',
  options: [{ flags: '--chain <caip2>', description: 'the chain, e.g. eip155:1', required: true }],
  run: (o, { env }) => gasRelayerCommand(parseConfig(env), env, parseChain(o.chain)),
});
