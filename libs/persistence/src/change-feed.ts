/**
 * Cross-process cache invalidation over PostgreSQL LISTEN/NOTIFY. Writers call
 * `store.notifyChange` inside their transaction; every process's feed hears it after commit.
 * If the listening connection drops, subscribers are told to forget everything (`'*'`), since
 * notifications may have been missed, and the feed reconnects.
 */
import pg from 'pg';
import { CHANGE_CHANNEL } from './store.js';

export interface TChangeFeed {
  close(): Promise<void>;
}

export async function startChangeFeed(url: string, onChange: (message: string) => void): Promise<TChangeFeed> {
  let closed = false;
  let client: pg.Client | undefined;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => {
      if (n.channel === CHANGE_CHANNEL && n.payload) onChange(n.payload);
    });
    c.on('error', () => {
      onChange('*');
      if (!closed) setTimeout(() => void connect().catch(() => undefined), 500).unref();
    });
    await c.connect();
    await c.query(`LISTEN ${CHANGE_CHANNEL}`);
    client = c;
  };
  await connect();
  return {
    async close() {
      closed = true;
      await client?.end().catch(() => undefined);
    },
  };
}
