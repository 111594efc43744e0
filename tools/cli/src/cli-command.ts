/**
 * The contract of one CLI command. Each command is one file under `src/commands/` exporting a
 * `TCliCommand`, listed once in `src/commands/index.ts`; `program.ts` turns the list into the
 * commander program, so its help, option parsing and exit codes are the same for every command.
 */
import type { Command } from 'commander';

/** One `--flag <value>` option. Its value reaches `run` under the flag's camelCased name. */
export interface TCliOption {
  /** Commander flags, e.g. `--user-name <name>` (a value option) or `--json` (a boolean). */
  readonly flags: string;
  readonly description: string;
  /** A missing required option is a usage error (exit 2) before `run` is called. */
  readonly required?: boolean;
}

export interface TCliContext {
  /** The environment the command reads its configuration from (`parseConfig(env)`). */
  readonly env: NodeJS.ProcessEnv;
}

export interface TCliCommand<TOptions = Record<string, string | boolean | undefined>> {
  /** The words after `latchkey`, e.g. `keygen` or `org create`. A first word shared by several
   *  commands is a group, described in `COMMAND_GROUPS`. */
  readonly name: string;
  /** One line, shown in `latchkey --help`. */
  readonly summary: string;
  /** More text for `latchkey <name> --help`: what it needs, what it prints. */
  readonly details?: string;
  readonly options?: readonly TCliOption[];
  /** For anything the options list cannot say (positional arguments, choices…). */
  readonly configure?: (command: Command) => void;
  /**
   * Runs the command. A value it returns is printed to stdout as JSON (and nothing else is: a
   * script may pipe it); `undefined` prints nothing.
   * @throws UsageError when the arguments make no sense (exit code 2); anything else is exit 1
   */
  readonly run: (options: TOptions, context: TCliContext) => unknown;
}

/** Identity, for the option types: `export const x = defineCommand<{ name: string }>({…})`. */
export const defineCommand = <TOptions>(command: TCliCommand<TOptions>): TCliCommand<TOptions> => command;
