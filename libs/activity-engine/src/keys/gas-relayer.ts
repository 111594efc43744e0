/**
 * The gas relayer: the one secp256k1 account that submits sponsored transactions and pays their
 * gas, the same address on every chain. Made on first use (or by `latchkey gas relayer`), its key
 * sealed by the vault under `gasRelayerAad`; opened only for the callback and wiped after it.
 */
import { ethereumAddress, generateCurveKeyPair, type TKeyVault } from '@latchkey/crypto';
import type { TGasRelayerRow, TRepositories } from '@latchkey/persistence';
import { gasRelayerAad } from './vault-aad.js';

/** The relayer, made and stored if there is none yet (two processes racing keep the first). */
export async function ensureGasRelayer(db: Pick<TRepositories, 'gas'>, vault: TKeyVault): Promise<TGasRelayerRow> {
  const found = await db.gas.relayer();
  if (found) return found;
  const { privateKey, publicKey } = generateCurveKeyPair('CURVE_SECP256K1');
  try {
    return await db.gas.ensureRelayer({ address: ethereumAddress(publicKey), publicKey: Buffer.from(publicKey).toString('hex'), sealedPrivateKey: vault.seal(privateKey, gasRelayerAad()) });
  } finally {
    privateKey.fill(0);
  }
}

/** Runs `fn` with the relayer's address and private key (wiped after). */
export async function withGasRelayerKey<T>(db: Pick<TRepositories, 'gas'>, vault: TKeyVault, fn: (relayer: { address: string; privateKey: Uint8Array }) => T | Promise<T>): Promise<T> {
  const relayer = await ensureGasRelayer(db, vault);
  const privateKey = vault.open(relayer.sealedPrivateKey, gasRelayerAad());
  try {
    return await fn({ address: relayer.address, privateKey });
  } finally {
    privateKey.fill(0);
  }
}
