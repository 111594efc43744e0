/**
 * A request's logger (`req.log`), made on first use. Fastify gives every request a pino child
 * bound to its request id; pino's `child()` serialises the bindings and sets up redaction at once,
 * which a request that logs nothing (a served whoami at the usual `warn` level: fastify's
 * "incoming request" and "request completed" are `info`) paid for nothing, ~10 µs of CPU. Here a
 * level the parent has disabled is a no-op, and the first line at an enabled level makes the real
 * child, with the same bindings and options, so every line written is the one pino's child would
 * have written (request id, redaction, serialisers).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type TLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

class LazyRequestLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Bindings,
    private readonly childOptions: ChildLoggerOptions,
  ) {}

  private real(): Logger {
    return (this.made ??= this.parent.child(this.childBindings, this.childOptions));
  }

  private write(level: TLevel, args: unknown[]): void {
    if (this.made === undefined && !this.parent.isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real().level = level;
  }
  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.real().child(bindings, options);
  }
  bindings(): Bindings {
    return this.real().bindings();
  }
}

/**
 * Fastify's `childLoggerFactory`: a request logger made on first use (see above). A route with a
 * log level of its own gets pino's child at once (its level differs from the parent's).
 */
export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  if (options.level !== undefined) return logger.child(bindings, options);
  return new LazyRequestLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger;
}
