/**
 * The preload of an app started early (launcher/early-start.ts): `node --import
 * <dist>/launcher-preload.mjs <dist>/main.mjs`, bundled beside every app's main.mjs so that its
 * imports resolve exactly as the bundle's do (the same files, hence the same module instances the
 * bundle then finds already loaded).
 *
 * While the launcher starts PostgreSQL it loads the bundle's npm dependencies (fastify, Prisma's
 * runtime, pino, zod, the curves…); then it waits for the launcher's `start` message and adds its
 * variables to process.env. Node runs main.mjs only after this module's evaluation finished, so
 * the app's own code never sees the environment without them. Without $LATCHKEY_LAUNCHER_PRELOAD
 * (a restart, a worker thread inheriting the flag, someone running it by hand) it does nothing.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { bundleImports, isStartMessage, PRELOAD_ENV, type TWaitingMessage } from './early-start.js';

async function holdUntilStarted(): Promise<void> {
  if (!isMainThread || process.env[PRELOAD_ENV] !== '1' || !process.send || !process.argv[1]) return;
  delete process.env[PRELOAD_ENV];
  const started = new Promise<Record<string, string>>((res) => {
    const onMessage = (m: unknown) => {
      if (!isStartMessage(m)) return;
      process.off('message', onMessage);
      process.off('disconnect', onDisconnect);
      res(m.env);
    };
    // The launcher is gone before it could start us: nobody will, and nobody would stop us.
    const onDisconnect = () => process.exit(1);
    process.on('message', onMessage);
    process.once('disconnect', onDisconnect);
  });
  process.send({ type: 'latchkey:waiting' } satisfies TWaitingMessage);
  // A dependency that fails to load is not reported here: the bundle fails on it with its own error.
  const source = await readFile(resolve(process.argv[1]), 'utf8').catch(() => '');
  const loaded = Promise.allSettled(bundleImports(source).map((spec) => import(spec)));
  Object.assign(process.env, await started);
  await loaded;
}

await holdUntilStarted();
