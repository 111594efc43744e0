/**
 * `<dataDir>/latchkey.pid`: one launcher per data folder. The file outlives a launcher killed
 * with SIGKILL, and its pid may since have been given to an unrelated process; such a file must
 * neither block `npm start` nor be believed. A pid is trusted only when /proc shows a Latchkey
 * launcher (`… tools/cli/dist/main.mjs start`) that started before the file was last written.
 *
 * The /proc reading mirrors libs/persistence/src/embedded/check-pid-file.ts (postmaster.pid),
 * which the CLI cannot import until @latchkey/persistence exports it.
 */
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isProcessAlive as isAlive } from '@latchkey/persistence';

/** USER_HZ: the unit of /proc/<pid>/stat's starttime, 100 on every Linux ABI. */
const USER_HZ = 100;
/** /proc/stat's btime is whole seconds and moves with clock adjustments. */
const START_TIME_SLACK_MS = 2_000;

/** True when `argv` is a Latchkey launcher: the CLI bundle run with the `start` command. */
export function isLauncherCommandLine(argv: string[]): boolean {
  const own = process.argv[1] ? resolve(process.argv[1]) : undefined;
  const script = argv.findIndex((a) => /(^|\/)tools\/cli\/dist\/main\.mjs$/.test(a) || (own !== undefined && a === own));
  return script >= 0 && argv.slice(script + 1).includes('start');
}

/** Command line and start time (ms since the epoch) of `pid`; undefined when no such process runs. */
async function processInfo(pid: number): Promise<{ argv: string[]; startedAtMs: number | undefined } | undefined> {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  if (!cmdline) return undefined; // gone, a zombie (empty), or no /proc (see below)
  const argv = cmdline.replace(/\0$/, '').split('\0');
  const [statText, procStat] = await Promise.all([readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''), readFile('/proc/stat', 'utf8').catch(() => '')]);
  const btime = /^btime (\d+)$/m.exec(procStat)?.[1];
  // starttime is field 22; fields are counted after the parenthesised command name, which may
  // contain spaces and parentheses itself.
  const ticks = Number(statText.slice(statText.lastIndexOf(')') + 2).split(' ')[22 - 3]);
  const startedAtMs = btime !== undefined && Number.isFinite(ticks) ? Number(btime) * 1000 + (ticks / USER_HZ) * 1000 : undefined;
  return { argv, startedAtMs };
}

export type TLauncherLock = { state: 'free'; stale?: string } | { state: 'held'; pid: number };

/**
 * Whether another launcher holds `lockFile`. `stale` says why a file that exists was ignored.
 * Without /proc (not Linux) a live pid is believed, as before: refusing is the safe mistake.
 * @throws Error when the file exists but cannot be read.
 */
export async function checkLauncherLock(lockFile: string): Promise<TLauncherLock> {
  let text: string;
  let mtimeMs: number;
  try {
    [text, mtimeMs] = await Promise.all([readFile(lockFile, 'utf8'), stat(lockFile).then((s) => s.mtimeMs)]);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'free' };
    throw e;
  }
  const pid = Number(text.trim().split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return { state: 'free', stale: `${lockFile} holds no pid` };
  if (pid === process.pid) return { state: 'free', stale: `${lockFile} names this very process` };
  const hasProc = await stat('/proc/self/cmdline').then(
    () => true,
    () => false,
  );
  if (!hasProc) return isAlive(pid) ? { state: 'held', pid } : { state: 'free', stale: `process ${pid} is gone` };
  const info = await processInfo(pid);
  if (!info) return { state: 'free', stale: `process ${pid} is gone` };
  if (!isLauncherCommandLine(info.argv)) return { state: 'free', stale: `pid ${pid} now belongs to another program (${info.argv[0] ?? '?'})` };
  if (info.startedAtMs !== undefined && info.startedAtMs > mtimeMs + START_TIME_SLACK_MS) {
    return { state: 'free', stale: `process ${pid} started after ${lockFile} was written, so it is not the launcher that wrote it` };
  }
  return { state: 'held', pid };
}
