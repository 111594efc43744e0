/**
 * The Latchkey CLI (`npm run latchkey -- <command>`; `npm start` runs `start`). The commands are
 * listed in `commands/index.ts`; `latchkey --help` shows them, README.md the exit codes.
 */
import { runCli } from './program.js';

const code = await runCli(process.argv.slice(2), { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) }, { env: process.env });
// On success the process ends by itself (`start` keeps running its apps); a failure may leave
// handles open (an embedded database starting), so it exits explicitly.
if (code !== 0) process.exit(code);
