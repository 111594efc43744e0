/**
 * Builds the commander program from the command list and runs it. Every way a call can end is
 * one of three exit codes, the same for every command (README.md): 0 done, 1 the command failed,
 * 2 it was called wrongly (unknown command or option, missing value, UsageError).
 */
import { Command, CommanderError, Help } from 'commander';
import type { TCliCommand, TCliContext } from './cli-command.js';
import { COMMAND_GROUPS, COMMANDS } from './commands/index.js';
import { UsageError } from './usage-error.js';

export const EXIT_CODES = { ok: 0, failure: 1, usage: 2 } as const;

export interface TCliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The leaf commands under `cmd`, depth first: `latchkey --help` lists `org create`, not `org`. */
const leaves = (cmd: Command): Command[] => cmd.commands.flatMap((c) => (c.commands.length ? leaves(c) : [c]));

/** `org create`: the words after the program name. */
function pathOf(cmd: Command): string {
  const words: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) words.unshift(c.name());
  return words.join(' ') || cmd.name();
}

/** Required options spelled out in the usage line, the others in brackets. */
function usageOf(def: TCliCommand<never>): string {
  const options = def.options ?? [];
  return [...options.filter((o) => o.required).map((o) => o.flags), ...options.filter((o) => !o.required).map((o) => `[${o.flags}]`)].join(' ');
}

/** The group command for `words[0]`, created on first use; groups must be described in COMMAND_GROUPS. */
function parentFor(program: Command, words: string[]): Command {
  let parent = program;
  for (const word of words) {
    const existing = parent.commands.find((c) => c.name() === word);
    if (existing) {
      parent = existing;
      continue;
    }
    const summary = COMMAND_GROUPS[word];
    if (parent !== program || summary === undefined) throw new Error(`command group "${word}" has no summary in COMMAND_GROUPS (src/commands/index.ts)`);
    parent = parent.command(word).description(summary);
  }
  return parent;
}

/** @throws Error when two commands share a name or a group is undescribed (a programming error). */
export function buildProgram(commands: readonly TCliCommand<never>[], io: TCliIo, context: TCliContext): Command {
  const program = new Command('latchkey')
    .description('Latchkey: a self-hostable, Turnkey-compatible wallet platform.')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .configureHelp({
      visibleCommands(cmd) {
        return Help.prototype.visibleCommands.call(this, cmd).flatMap((c) => (c.commands.length ? leaves(c) : [c]));
      },
      // The full usage line is in the command's own help; the list stays one narrow column.
      subcommandTerm: (cmd) => pathOf(cmd) + (cmd.options.length ? ' [options]' : '') + cmd.registeredArguments.map((a) => (a.required ? ` <${a.name()}>` : ` [${a.name()}]`)).join(''),
    })
    .showHelpAfterError(true)
    .exitOverride();

  const seen = new Set<string>();
  for (const def of commands) {
    if (seen.has(def.name)) throw new Error(`two CLI commands are named "${def.name}"`);
    seen.add(def.name);
    const words = def.name.split(' ');
    const cmd = parentFor(program, words.slice(0, -1)).command(words.at(-1)!).summary(def.summary).description(def.details ? `${def.summary}\n\n${def.details}` : def.summary);
    for (const o of def.options ?? []) {
      if (o.required) cmd.requiredOption(o.flags, o.description);
      else cmd.option(o.flags, o.description);
    }
    if (def.options?.length) cmd.usage(`${usageOf(def)}`);
    def.configure?.(cmd);
    cmd.action(async (options: Record<string, unknown>, self: Command) => {
      let result: unknown;
      try {
        result = await def.run(options as never, context);
      } catch (e) {
        // Reported like commander's own parse errors: message, then this command's help.
        if (e instanceof UsageError) self.error(`error: ${e.message}`, { exitCode: EXIT_CODES.usage, code: 'latchkey.usage' });
        throw e;
      }
      if (result !== undefined) io.stdout(JSON.stringify(result, null, 2) + '\n');
    });
  }
  return program;
}

/** Runs one command line (without `node main.mjs`) and says how the process should exit. */
export async function runCli(argv: readonly string[], io: TCliIo, context: TCliContext): Promise<number> {
  try {
    await buildProgram(COMMANDS, io, context).parseAsync([...argv], { from: 'user' });
    return EXIT_CODES.ok;
  } catch (e) {
    // Commander has already printed its message (and help); exit code 0 means help was asked for.
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    io.stderr(`latchkey: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT_CODES.failure;
  }
}
