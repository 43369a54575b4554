// The gateway's log: one JSON line per event ({time, level, msg, ...fields}) that journald and
// log shippers keep whole; errors on stderr, the rest on stdout.
export type LogLevel = 'info' | 'error';

/** Where a part of the gateway writes its log lines (tests pass their own). */
export type Log = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => void;

export const jsonLine = (level: LogLevel, msg: string, fields: Record<string, unknown> = {}): string =>
    JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });

export const logJson: Log = (level, msg, fields) =>
    (level === 'error' ? console.error : console.log)(jsonLine(level, msg, fields));
