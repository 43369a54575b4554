// GET /metrics as Prometheus reads it, for tests: scraped, parsed by a Prometheus text-format
// parser (prom2javascript: labelled histograms too), and samples found by name and labels.
import { getMetricsFromIterator, type PromLabels, type PromMetrics } from 'prom2javascript';

export type Scrape = PromMetrics;

/** One sample: a counter's or gauge's value, or a histogram's buckets, count and sum. */
export interface Sample {
    labels: PromLabels;
    value?: number | null;
    buckets?: Record<string, number>;
    count?: number;
    sum?: number;
}

/** The metrics at `url` (with the bearer `token` when given): throws unless 200 in Prometheus text format. */
export async function scrape(url: string, token?: string): Promise<Scrape> {
    const res = await fetch(url, { headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text}`);
    if (!/^text\/plain; version=0\.0\.4/.test(res.headers.get('content-type') ?? ''))
        throw new Error(`GET ${url}: not the text format: ${res.headers.get('content-type')}`);
    return getMetricsFromIterator(text.split('\n')[Symbol.iterator]());
}

/** The samples of `name` whose labels include `labels`. */
export function samples(s: Scrape, name: string, labels: Record<string, string> = {}): Sample[] {
    return ((s[name]?.data ?? []) as Sample[]).filter((m) =>
        Object.entries(labels).every(([k, v]) => m.labels[k] === v),
    );
}

/** The value of the one sample of `name` with `labels` (undefined: none); a histogram's count. */
export function value(s: Scrape, name: string, labels: Record<string, string> = {}): number | null | undefined {
    const found = samples(s, name, labels);
    if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} samples`);
    const [sample] = found;
    return sample === undefined ? undefined : (sample.value ?? sample.count);
}

/** The sum of the samples of `name` with `labels` (histograms: their counts). */
export const total = (s: Scrape, name: string, labels: Record<string, string> = {}): number =>
    samples(s, name, labels).reduce((n, m) => n + Number(m.value ?? m.count), 0);
