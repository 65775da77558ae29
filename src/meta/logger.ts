/**
 * Structured logging: one `Logger` interface that every layer takes as an option, with a fixed message
 * plus fields per line, so lines can be searched by message and filtered by field. `jsonLogger`
 * writes one JSON object per line; `noopLogger`
 * discards. Invariant: `child(fields)` never loses the parent's fields, and a line's own fields win.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(fields: LogFields, msg: string): void;
  info(fields: LogFields, msg: string): void;
  warn(fields: LogFields, msg: string): void;
  error(fields: LogFields, msg: string): void;
  /** A logger whose lines all carry `fields` too. */
  child(fields: LogFields): Logger;
}

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Options of `jsonLogger`: the lowest level written, where each JSON line goes, and the clock of its `ts` field. */
export interface JsonLoggerOptions {
  /** Lowest level written; default `info`. */
  level?: LogLevel;
  /** Where lines go; default `process.stderr`. */
  write?: (line: string) => void;
  /** Time source for the `ts` field; default `Date.now`. */
  now?: () => number;
}

function errorFields(v: unknown): unknown {
  return v instanceof Error ? { name: v.name, message: v.message, ...('code' in v ? { code: (v as { code: unknown }).code } : {}) } : v;
}

/** Writes `{"ts":"…","level":"info","msg":"…",…fields}` lines. Errors in fields are reduced to name/message/code. */
export function jsonLogger(options: JsonLoggerOptions = {}, bound: LogFields = {}): Logger {
  const min = LEVELS[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const now = options.now ?? Date.now;
  const emit = (level: LogLevel, fields: LogFields, msg: string): void => {
    if (LEVELS[level] < min) return;
    const out: LogFields = { ts: new Date(now()).toISOString(), level, msg, ...bound };
    for (const [k, v] of Object.entries(fields)) out[k] = errorFields(v);
    write(JSON.stringify(out));
  };
  return {
    debug: (f, m) => emit('debug', f, m),
    info: (f, m) => emit('info', f, m),
    warn: (f, m) => emit('warn', f, m),
    error: (f, m) => emit('error', f, m),
    child: (fields) => jsonLogger(options, { ...bound, ...fields }),
  };
}

const noop = (): void => {};
/** Discards everything. The default where no logger is given. */
export const noopLogger: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop, child: () => noopLogger });
