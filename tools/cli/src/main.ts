/**
 * The Latchkey CLI (`npm run latchkey -- <command>`; `npm start` runs `start`).
 *   start                      run the platform (embedded PostgreSQL unless DATABASE_URL)
 *   migrate                    apply migrations and first-start steps, then exit
 *   keygen                     print a new P-256 API key pair as JSON
 *   org create --name N --user-name U --api-public-key HEX [--user-email E]
 *                              create another root organization; prints its ids as JSON
 */
import { generateP256KeyPair } from '@latchkey/crypto';
import { parseConfig } from '@latchkey/domain';
import { migrateCommand } from './commands/migrate.js';
import { orgCreateCommand } from './commands/org-create.js';
import { startCommand } from './commands/start.js';
import { UsageError } from './usage-error.js';

const USAGE = `usage: latchkey <command>
  start                      run the platform (embedded PostgreSQL unless DATABASE_URL is set)
  migrate                    apply migrations and first-start steps, then exit
  keygen                     print a new P-256 API key pair as JSON
  org create --name N --user-name U --api-public-key HEX [--user-email E]
                             create another root organization and print its ids as JSON`;

/** `--key value` pairs after the command words. */
export function parseFlags(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('--')) throw new UsageError(`unexpected argument ${JSON.stringify(a)}`);
    const eq = a.indexOf('=');
    if (eq > 0) out[a.slice(2, eq)] = a.slice(eq + 1);
    else {
      const v = args[i + 1];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${a} needs a value`);
      out[a.slice(2)] = v;
      i++;
    }
  }
  return out;
}

const print = (v: unknown): void => {
  process.stdout.write(JSON.stringify(v, null, 2) + '\n');
};

async function main(argv: string[]): Promise<void> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'start':
      return startCommand(parseConfig(process.env));
    case 'migrate':
      return print(await migrateCommand(parseConfig(process.env)));
    case 'keygen': {
      const kp = generateP256KeyPair();
      return print({ publicKey: kp.publicKey, privateKey: kp.privateKey });
    }
    case 'org': {
      if (rest[0] !== 'create') throw new UsageError('unknown org command; did you mean `org create`?');
      return print(await orgCreateCommand(parseConfig(process.env), parseFlags(rest.slice(1))));
    }
    case undefined:
    case 'help':
    case '--help':
      process.stdout.write(USAGE + '\n');
      return;
    default:
      throw new UsageError(`unknown command ${JSON.stringify(cmd)}`);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof UsageError) {
    process.stderr.write(`${e.message}\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`latchkey: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
