/**
 * `GET /.well-known/latchkey.json` (unauthenticated): the server's public keys that clients pass
 * to `@turnkey/crypto` as `dangerouslyOverride…` keys.
 */
import type { TServerPublicKeys } from '@latchkey/activity-engine';
import type { FastifyInstance } from 'fastify';

export function registerWellKnownRoute(app: FastifyInstance, keys: TServerPublicKeys): void {
  const body = JSON.stringify({ signerPublicKey: keys.signerPublicKey, notarizerPublicKey: keys.notarizerPublicKey, otpVerifierPublicKey: keys.otpVerifierPublicKey });
  app.get('/.well-known/latchkey.json', async (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(body));
}
