/**
 * The Ethereum JSON-RPC client Latchkey uses to fill, broadcast and follow the transactions it
 * sends (eth_send_transaction): plain `fetch` of JSON-RPC 2.0, one URL per CAIP-2 chain, read from
 * `LATCHKEY_EVM_RPC_URLS`. Shared by the public API (fill and broadcast) and the webhook worker
 * (the receipt watcher), so both read the variable with one parser.
 */

/** The variable that names each chain's node. */
export const EVM_RPC_URLS_VARIABLE = 'LATCHKEY_EVM_RPC_URLS';

const CAIP2_EIP155 = /^eip155:([1-9][0-9]{0,18})$/;

/**
 * Parses `eip155:1=https://…,eip155:31337=http://127.0.0.1:8545` into chain → URL. Unset or empty:
 * no chain (eth_send_transaction then refuses every `caip2`).
 * @throws Error naming LATCHKEY_EVM_RPC_URLS and the entry that is not `eip155:<chainId>=<http(s) URL>`
 */
export function parseEvmRpcUrls(value: string | undefined): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  if (value === undefined || value.trim() === '') return out;
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    const caip2 = eq < 0 ? entry : entry.slice(0, eq).trim();
    const url = eq < 0 ? '' : entry.slice(eq + 1).trim();
    if (!CAIP2_EIP155.test(caip2)) throw new Error(`${EVM_RPC_URLS_VARIABLE}: "${caip2}" is not an eip155:<chainId> CAIP-2 id (expected e.g. eip155:1=https://rpc.example)`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`${EVM_RPC_URLS_VARIABLE}: ${caip2} has no valid URL after "=" (expected e.g. ${caip2}=https://rpc.example)`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`${EVM_RPC_URLS_VARIABLE}: ${caip2}'s URL must be http(s)`);
    if (out.has(caip2)) throw new Error(`${EVM_RPC_URLS_VARIABLE}: ${caip2} is listed twice`);
    out.set(caip2, url);
  }
  return out;
}

/** The variable that prices each chain's native token for the gas ledger. */
export const GAS_PRICE_USD_VARIABLE = 'LATCHKEY_GAS_PRICE_USD';

/**
 * Parses `eip155:1=3100.25,eip155:31337=2000` (USD per whole native token, at most 18 decimals)
 * into chain → decimal string. A chain without a price cannot be sponsored.
 * @throws Error naming LATCHKEY_GAS_PRICE_USD and the malformed entry
 */
export function parseGasPricesUsd(value: string | undefined): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  if (value === undefined || value.trim() === '') return out;
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const [caip2 = '', price = ''] = entry.split('=').map((x) => x.trim());
    if (!CAIP2_EIP155.test(caip2)) throw new Error(`${GAS_PRICE_USD_VARIABLE}: "${caip2}" is not an eip155:<chainId> CAIP-2 id (expected e.g. eip155:1=3100.25)`);
    if (!/^(0|[1-9][0-9]{0,17})(\.[0-9]{1,18})?$/.test(price)) throw new Error(`${GAS_PRICE_USD_VARIABLE}: ${caip2}'s price must be a USD decimal (e.g. ${caip2}=3100.25)`);
    if (out.has(caip2)) throw new Error(`${GAS_PRICE_USD_VARIABLE}: ${caip2} is listed twice`);
    out.set(caip2, price);
  }
  return out;
}

/** The chain id of an `eip155:N` CAIP-2 id. @throws Error for any other form */
export function eip155ChainId(caip2: string): bigint {
  const m = CAIP2_EIP155.exec(caip2);
  if (!m) throw new Error(`${caip2} is not an eip155:<chainId> CAIP-2 id`);
  return BigInt(m[1]!);
}

/** A JSON-RPC error answered by the node (`code`, `message`, `data` as sent), or a transport failure (`code` undefined). */
export class EvmRpcError extends Error {
  constructor(
    message: string,
    readonly code: number | undefined,
    readonly data: unknown,
  ) {
    super(message);
    this.name = 'EvmRpcError';
  }
}

export interface TEvmRpc {
  readonly caip2: string;
  readonly chainId: bigint;
  /** @throws EvmRpcError when the node answers an error or cannot be reached */
  call<T = unknown>(method: string, params: unknown[]): Promise<T>;
}

/**
 * A client of one node. Every call has a timeout (a hung node must not hold an activity's
 * transaction open for ever); the URL is never put into an error message (it may carry an API key).
 */
export function createEvmRpc(caip2: string, url: string, opts: { timeoutMs?: number } = {}): TEvmRpc {
  const chainId = eip155ChainId(caip2);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  let nextId = 1;
  return {
    caip2,
    chainId,
    async call<T>(method: string, params: unknown[]): Promise<T> {
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        throw new EvmRpcError(`the ${caip2} node could not be reached (${e instanceof Error ? e.name : 'error'})`, undefined, undefined);
      }
      const text = await res.text();
      let body: { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        throw new EvmRpcError(`the ${caip2} node answered ${method} with HTTP ${res.status} and no JSON`, undefined, undefined);
      }
      if (body.error) {
        const message = typeof body.error.message === 'string' ? body.error.message : 'error';
        throw new EvmRpcError(message, typeof body.error.code === 'number' ? body.error.code : undefined, body.error.data);
      }
      return body.result as T;
    },
  };
}

/**
 * Every chain LATCHKEY_EVM_RPC_URLS names, each with its client.
 * @throws Error naming the variable when it is malformed
 */
export function createEvmChains(env: Record<string, string | undefined>): ReadonlyMap<string, TEvmRpc> {
  return new Map([...parseEvmRpcUrls(env[EVM_RPC_URLS_VARIABLE])].map(([caip2, url]) => [caip2, createEvmRpc(caip2, url)]));
}

/** A quantity (`0x…`) as a bigint. @throws EvmRpcError for anything else */
export function rpcQuantity(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) throw new EvmRpcError(`the node answered a malformed ${what}`, undefined, value);
  return BigInt(value);
}

/** A bigint as a JSON-RPC quantity. */
export const toRpcQuantity = (n: bigint): string => `0x${n.toString(16)}`;
