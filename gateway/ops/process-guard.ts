// The last guard of a long-running process: an error no handler caught (a promise nobody
// awaited, an exception thrown from a callback) is logged as one JSON line and the process
// keeps serving, instead of Node ending it and every request in flight with it.
import { jsonLine } from './log';

export function guardProcess(log: (line: string) => void = (line) => console.error(line)): void {
    const report =
        (what: string) =>
        (error: unknown): void =>
            log(
                jsonLine('error', `${what}: ${error instanceof Error ? error.message : String(error)}`, {
                    stack: error instanceof Error ? error.stack : undefined,
                }),
            );
    process.on('unhandledRejection', report('unhandled rejection (kept running)'));
    process.on('uncaughtException', report('uncaught exception (kept running)'));
}
