// What a soak saw: every request by kind with its status and latency, and every failed
// assertion by category with its details; printed as the soak's table.

/** The categories of failed assertions (each one a check of the soak test). */
export const CHECKS = {
    server: 'a 5xx other than a 503 with Retry-After, or no answer at all',
    status: 'an answer other than the ones the contract allows for the request',
    session: 'a 401 or 403 to a live session (the official SDKs sign their player out on it)',
    envelope: 'an API answer that is not the JSON envelope (200 exactly when ok)',
    local: 'a URL handed out under npm start that leads off the local stack',
    raw: 'a raw-domain answer taken for a certifying-domain one (certified)',
    logs: 'a trap, an unhandled rejection or an uncaught error in the logs',
    writes: 'an acknowledged write not readable at the end (best scores, nicknames, achievements)',
    events: 'an event of a subscribed kind recorded by the canister that never reached the webhook receiver',
    moderation: "a banned player's write accepted",
    isolation: 'a credential of one game accepted on another',
    exercised: 'something the soak must have done and could not (else the checks above prove little)',
} as const;
export type Check = keyof typeof CHECKS;

/** At most this many different details are kept per check (the count is exact). */
const DETAILS_KEPT = 30;

export interface Recorder {
    /** One request's outcome (`status` 0: no answer) and latency. */
    sample(kind: string, status: number, ms: number): void;
    fail(check: Check, detail: string): void;
    /** Failures by check: their count and the first details. */
    failures(): Record<Check, { count: number; details: string[] }>;
    /** Requests by kind: status -> count, and the latencies (ms). */
    samples(): Map<string, { statuses: Map<number, number>; ms: number[] }>;
    /** Figures the soak adds to its table (events delivered, traps seen...). */
    figures: Map<string, number | string>;
}

export function recorder(): Recorder {
    const byKind = new Map<string, { statuses: Map<number, number>; ms: number[] }>();
    const failed = Object.fromEntries(
        Object.keys(CHECKS).map((c) => [c, { count: 0, details: [] as string[] }]),
    ) as Record<Check, { count: number; details: string[] }>;
    return {
        sample(kind, status, ms) {
            let k = byKind.get(kind);
            if (k === undefined) byKind.set(kind, (k = { statuses: new Map(), ms: [] }));
            k.statuses.set(status, (k.statuses.get(status) ?? 0) + 1);
            k.ms.push(ms);
        },
        fail(check, detail) {
            const f = failed[check];
            f.count += 1;
            if (f.details.length < DETAILS_KEPT && !f.details.includes(detail)) f.details.push(detail);
        },
        failures: () => failed,
        samples: () => byKind,
        figures: new Map(),
    };
}

function percentile(sorted: number[], p: number): number {
    if (sorted.length === 0) return 0;
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The soak's table: requests by kind and status with p50/p99 (ms), the figures, the checks. */
export function table(rec: Recorder): string {
    const rows = [...rec.samples()].sort(([a], [b]) => a.localeCompare(b));
    const statusText = (statuses: Map<number, number>): string =>
        [...statuses]
            .sort(([a], [b]) => a - b)
            .map(([s, n]) => `${s === 0 ? 'none' : s}:${n}`)
            .join(' ');
    const width = Math.max(4, ...rows.map(([kind]) => kind.length));
    const lines = [
        `${'kind'.padEnd(width)}  ${'requests'.padStart(8)}  ${'p50'.padStart(6)}  ${'p99'.padStart(6)}  statuses`,
    ];
    let total = 0;
    for (const [kind, k] of rows) {
        const sorted = [...k.ms].sort((a, b) => a - b);
        total += sorted.length;
        lines.push(
            `${kind.padEnd(width)}  ${String(sorted.length).padStart(8)}  ${String(Math.round(percentile(sorted, 50))).padStart(6)}  ${String(Math.round(percentile(sorted, 99))).padStart(6)}  ${statusText(k.statuses)}`,
        );
    }
    lines.push(`${'all'.padEnd(width)}  ${String(total).padStart(8)}`, '');
    for (const [name, value] of rec.figures) lines.push(`${name}: ${value}`);
    lines.push('');
    for (const [check, f] of Object.entries(rec.failures()) as Array<[Check, { count: number; details: string[] }]>) {
        lines.push(`${f.count === 0 ? 'ok  ' : 'FAIL'} ${check}: ${f.count} (${CHECKS[check]})`);
        for (const d of f.details.slice(0, 5)) lines.push(`       ${d}`);
    }
    return lines.join('\n');
}
