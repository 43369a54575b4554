// Small helpers for benchmarks: time samples and print them as tables.

export interface Summary {
    n: number;
    median: number;
    p95: number;
    p99: number;
    mean: number;
}

export function summarize(samples: number[]): Summary {
    const sorted = [...samples].sort((a, b) => a - b);
    const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return {
        n: sorted.length,
        median: at(0.5),
        p95: at(0.95),
        p99: at(0.99),
        mean: sorted.reduce((s, x) => s + x, 0) / sorted.length,
    };
}

/** Runs `fn` `warmup` times, then `n` times, and returns the milliseconds of each timed run. */
export async function sample(n: number, fn: () => unknown, warmup = Math.min(20, n)): Promise<number[]> {
    for (let i = 0; i < warmup; i++) await fn();
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
        const t = performance.now();
        await fn();
        out.push(performance.now() - t);
    }
    return out;
}

export function table(title: string, header: string[], rows: Array<Array<string | number>>): void {
    const cells = [header, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? format(c) : c)))];
    const widths = header.map((_, i) => Math.max(...cells.map((r) => String(r[i]).length)));
    const line = (r: Array<string | number>): string =>
        `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
    console.log(`\n${title}\n`);
    console.log(line(cells[0]));
    console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const r of cells.slice(1)) console.log(line(r));
}

function format(x: number): string {
    if (Number.isInteger(x)) return x.toLocaleString('en-US');
    return x < 10 ? x.toFixed(2) : x.toFixed(1);
}
