/**
 * A webhook receiver on 127.0.0.1 that answers 200 at once and remembers, per activity id, the
 * statuses delivered (at-least-once: duplicates are counted, not refused).
 */
import http from 'node:http';

export interface TWebhookReceiver {
  url: string;
  /** activity id → statuses delivered, in arrival order. */
  delivered: Map<string, string[]>;
  deliveries(): number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<TWebhookReceiver> {
  const delivered = new Map<string, string[]>();
  let count = 0;
  const server = http.createServer({ keepAlive: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: string; status?: string; activity?: { id: string; status: string } };
        const a = body.activity ?? body;
        if (a.id) {
          count++;
          delivered.set(a.id, [...(delivered.get(a.id) ?? []), a.status ?? '']);
        }
      } catch {
        // not an activity: still acknowledged
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    delivered,
    deliveries: () => count,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
