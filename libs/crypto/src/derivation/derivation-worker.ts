/**
 * The derivation pool's worker thread (derivation-pool.ts): derives one chunk of accounts from the
 * seed it is sent, answers with the accounts in order, and zeroes its copies of the seed and of
 * every private key once the answer is posted (postMessage copies synchronously).
 */
import { parentPort } from 'node:worker_threads';
import { SeedDeriver, type TCurveName } from './derive-key.js';
import { deriveAccountBatch, type TDerivationReply, type TDerivationRequest, type TDerivedAccount } from './derivation-pool.js';

const port = parentPort;
if (!port) throw new Error('derivation-worker runs as a worker thread of the derivation pool');

port.on('message', ({ id, seed, specs }: TDerivationRequest) => {
  let accounts: TDerivedAccount[] = [];
  let reply: TDerivationReply;
  try {
    accounts = deriveAccountBatch(SeedDeriver.fromSeed(seed), specs);
    reply = { id, ok: true, accounts };
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    const allowedCurves = (err as { allowedCurves?: readonly TCurveName[] }).allowedCurves;
    reply = { id, ok: false, error: { name: err.name, message: err.message, ...(allowedCurves ? { allowedCurves } : {}) } };
  } finally {
    seed.fill(0);
  }
  try {
    port.postMessage(reply);
  } finally {
    for (const a of accounts) a.privateKey.fill(0);
  }
});
