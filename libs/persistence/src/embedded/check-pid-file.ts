/**
 * Whether a pid file still names the process that wrote it. A pid file outlives its process
 * (SIGKILL, a power cut), and the kernel reuses pids: after a reboot or enough forks, the pid in
 * a stale file may belong to anything — a shell, a database, someone's editor. Signalling that
 * process, or refusing to start because it is alive, is wrong. So a pid is trusted only when the
 * live process looks like the writer (its command line) and was already running when the file
 * was last written (its start time is not after the file's mtime).
 */
import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';

export type TPidFileState =
  /** No pid file. */
  | { state: 'absent' }
  /** A pid file whose process is gone or is not its writer: safe to ignore and replace. */
  | { state: 'stale'; pid: number | undefined; reason: string }
  /** The process that wrote the pid file is running. */
  | { state: 'live'; pid: number; argv: string[] };

/**
 * Linux reports process start times in clock ticks of USER_HZ, which the kernel fixes at 100 for
 * every architecture's user-space ABI (sysconf(_SC_CLK_TCK) answers 100).
 */
const USER_HZ = 100;
/** btime is whole seconds and drifts with clock adjustments: allow for both. */
const START_TIME_SLACK_MS = 2_000;

export interface TProcessInfo {
  argv: string[];
  /** Milliseconds since the epoch; undefined where the platform does not say (no /proc). */
  startedAtMs: number | undefined;
}

let bootTimeMs: Promise<number | undefined> | undefined;
/** The boot time from /proc/stat (`btime`, seconds since the epoch). */
function readBootTimeMs(): Promise<number | undefined> {
  bootTimeMs ??= readFile('/proc/stat', 'utf8').then(
    (text) => {
      const m = /^btime (\d+)$/m.exec(text);
      return m ? Number(m[1]) * 1000 : undefined;
    },
    () => undefined,
  );
  return bootTimeMs;
}

/**
 * The command line and start time of process `pid`, or undefined when there is none. From /proc
 * on Linux; elsewhere from `ps` (command line only, split on spaces).
 */
export async function readProcessInfo(pid: number): Promise<TProcessInfo | undefined> {
  let cmdline: string;
  try {
    cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    // No such process, or no /proc at all.
    if (await readFile('/proc/self/cmdline').then(() => true, () => false)) return undefined;
    return readProcessInfoWithPs(pid);
  }
  // A zombie has an empty command line: it is not running anything any more.
  if (cmdline === '') return undefined;
  const argv = cmdline.replace(/\0$/, '').split('\0');
  // Field 22 of stat counts from after the command name, which is in parentheses and may itself
  // contain spaces and parentheses: split after the last ')'.
  const statText = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  const boot = await readBootTimeMs();
  let startedAtMs: number | undefined;
  if (statText !== undefined && boot !== undefined) {
    const fields = statText.slice(statText.lastIndexOf(')') + 2).split(' ');
    // Fields from 3 (state) on: starttime is field 22, so index 22 - 3.
    const ticks = Number(fields[22 - 3]);
    if (Number.isFinite(ticks)) startedAtMs = boot + (ticks / USER_HZ) * 1000;
  }
  return { argv, startedAtMs };
}

async function readProcessInfoWithPs(pid: number): Promise<TProcessInfo | undefined> {
  try {
    const { stdout } = await promisify(execFile)('ps', ['-o', 'args=', '-p', String(pid)]);
    const line = stdout.trim();
    return line ? { argv: line.split(/\s+/), startedAtMs: undefined } : undefined;
  } catch {
    return undefined; // ps exits non-zero when there is no such process
  }
}

/**
 * Reads the pid on the first line of `path` and says whether that process is the file's writer:
 * alive, `isWriter(argv)` holds, and it started no later than the file was last written.
 * @throws Error when the file exists but cannot be read.
 */
export async function checkPidFile(path: string, isWriter: (argv: string[]) => boolean): Promise<TPidFileState> {
  let text: string;
  let mtimeMs: number;
  try {
    [text, mtimeMs] = await Promise.all([readFile(path, 'utf8'), stat(path).then((s) => s.mtimeMs)]);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'absent' };
    throw e;
  }
  const pid = Number(text.split('\n')[0]!.trim());
  if (!Number.isInteger(pid) || pid <= 0) return { state: 'stale', pid: undefined, reason: `${path} holds no pid` };
  if (pid === process.pid) return { state: 'stale', pid, reason: `${path} names this very process` };
  const info = await readProcessInfo(pid);
  if (!info) return { state: 'stale', pid, reason: `process ${pid} is gone` };
  if (!isWriter(info.argv)) return { state: 'stale', pid, reason: `pid ${pid} now belongs to another program (${info.argv[0] ?? '?'})` };
  if (info.startedAtMs !== undefined && info.startedAtMs > mtimeMs + START_TIME_SLACK_MS) {
    return { state: 'stale', pid, reason: `process ${pid} started after ${path} was written, so it is not its writer` };
  }
  return { state: 'live', pid, argv: info.argv };
}
