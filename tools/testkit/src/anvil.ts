/**
 * A real EVM chain for tests: anvil (Foundry) on a free port, Prague hardfork (EIP-7702), from the
 * `@foundry-rs/anvil-linux-amd64` package's binary (the `@foundry-rs/anvil` wrapper's postinstall
 * need not have run) or the binary LATCHKEY_ANVIL_BIN names. Blocks are mined per transaction.
 * Give Latchkey `LATCHKEY_EVM_RPC_URLS: anvil.rpcUrlsEnv` to send to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort } from '@latchkey/persistence';

export interface TAnvilOptions {
  /** Default 31337. */
  chainId?: number;
  /** Path of the anvil binary. Default LATCHKEY_ANVIL_BIN, else the one in @foundry-rs/anvil-linux-amd64. */
  binary?: string;
  /** How long to wait for it to answer. Default 30 s. */
  timeoutMs?: number;
}

export interface TAnvil {
  url: string;
  chainId: number;
  /** `eip155:<chainId>`. */
  caip2: string;
  /** `eip155:<chainId>=<url>`: the value for LATCHKEY_EVM_RPC_URLS. */
  rpcUrlsEnv: string;
  /** One JSON-RPC call; a JSON-RPC error rejects with its message, code and data. */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Sets an address's balance (anvil_setBalance), in wei. */
  setBalance(address: string, wei: bigint): Promise<void>;
  /** The balance of an address, in wei. */
  balance(address: string): Promise<bigint>;
  stop(): Promise<void>;
}

/** The anvil binary: an explicit path, LATCHKEY_ANVIL_BIN, or the platform package's. @throws Error when none exists */
export function anvilBinary(explicit?: string): string {
  const fromEnv = explicit ?? process.env['LATCHKEY_ANVIL_BIN'];
  if (fromEnv) return fromEnv;
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@foundry-rs/anvil-linux-amd64/package.json');
  const bin = join(dirname(pkg), 'bin', 'anvil');
  if (!existsSync(bin)) throw new Error(`anvil binary not found at ${bin}; install @foundry-rs/anvil-linux-amd64 or set LATCHKEY_ANVIL_BIN`);
  return bin;
}

export class AnvilRpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data: unknown,
  ) {
    super(message);
  }
}

/**
 * Starts anvil on a free port and waits until it answers eth_chainId. A port taken between the
 * check and the bind is retried on another.
 * @throws Error when it does not start within the timeout
 */
export async function startAnvil(opts: TAnvilOptions = {}): Promise<TAnvil> {
  const chainId = opts.chainId ?? 31337;
  const binary = anvilBinary(opts.binary);
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child: ChildProcess = spawn(binary, ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--hardfork', 'prague', '--silent'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    let nextId = 1;
    const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }) });
      const body = (await res.json()) as { result?: T; error?: { message: string; code: number; data?: unknown } };
      if (body.error) throw new AnvilRpcError(body.error.message, body.error.code, body.error.data);
      return body.result as T;
    };
    while (Date.now() < deadline && child.exitCode === null) {
      try {
        await rpc('eth_chainId');
        const stop = async () => {
          if (child.exitCode === null) {
            child.kill('SIGTERM');
            await exited;
          }
        };
        return {
          url,
          chainId,
          caip2: `eip155:${chainId}`,
          rpcUrlsEnv: `eip155:${chainId}=${url}`,
          rpc,
          setBalance: async (address, wei) => void (await rpc('anvil_setBalance', [address, `0x${wei.toString(16)}`])),
          balance: async (address) => BigInt(await rpc<string>('eth_getBalance', [address, 'latest'])),
          stop,
        };
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    lastError = stderr.trim();
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
    if (Date.now() >= deadline) break;
  }
  throw new Error(`anvil did not start${lastError ? `: ${lastError.slice(0, 500)}` : ''}`);
}
