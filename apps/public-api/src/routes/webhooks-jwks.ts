/**
 * `GET /public/v1/discovery/webhooks/jwks` (unauthenticated, §B4): the Ed25519 keys that sign
 * webhook deliveries, in the JWKS shape receivers turn into `verifyTurnkeyWebhookSignature`'s
 * verification keys, with Turnkey's cache header. The document is read from the database at most
 * once every few seconds, however many strangers ask: a rotation shows within that time, and a
 * flood of unauthenticated GETs costs no query each.
 */
import { webhookJwksDocument, type TWebhookSigningKeyRepository } from '@latchkey/persistence';
import type { FastifyInstance } from 'fastify';

export const WEBHOOK_JWKS_PATH = '/public/v1/discovery/webhooks/jwks';
const REFRESH_MS = 5_000;

export function registerWebhookJwksRoute(app: FastifyInstance, keys: TWebhookSigningKeyRepository): void {
  let cached: { at: number; doc: Promise<{ body: string; headers: Record<string, string> }> } | undefined;
  const current = () => {
    const now = Date.now();
    if (!cached || now - cached.at >= REFRESH_MS) {
      const doc = webhookJwksDocument(keys).then((d) => ({ body: JSON.stringify(d.body), headers: d.headers }));
      cached = { at: now, doc };
      // A failed read is not kept: the next request tries again.
      doc.catch(() => {
        if (cached?.doc === doc) cached = undefined;
      });
    }
    return cached.doc;
  };
  app.get(WEBHOOK_JWKS_PATH, async (_req, reply) => {
    const { body, headers } = await current();
    return reply.headers(headers).send(body);
  });
}
