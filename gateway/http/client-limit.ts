// A per-client-address budget of requests per minute, kept by this gateway alone (each gateway
// counts its own clients): public addresses as publicClientAddress gives them (an IPv6 /64 is one
// client; a local or private one is a proxy or a LAN, where a per-client cap would be a cap on
// everyone: not limited), windows on the real clock, at most MAX_CLIENTS addresses remembered.

const WINDOW_MS = 60_000;
const MAX_CLIENTS = 10_000;

/** Takes one request from a public address's budget: undefined when allowed, else seconds until its window ends. */
export type ClientLimit = (address: string | undefined) => number | undefined;

export function clientLimit(perMinute: number, now: () => number = Date.now): ClientLimit {
    const windows = new Map<string, { start: number; count: number }>();
    return (address) => {
        if (address === undefined) return undefined;
        const t = now();
        let w = windows.get(address);
        if (w === undefined || t - w.start >= WINDOW_MS) {
            if (windows.size >= MAX_CLIENTS)
                for (const [k, v] of windows) if (t - v.start >= WINDOW_MS) windows.delete(k);
            // Still full of live windows: the oldest goes (a flood of addresses forgets the oldest client).
            if (windows.size >= MAX_CLIENTS) windows.delete(windows.keys().next().value as string);
            w = { start: t, count: 0 };
            windows.set(address, w);
        }
        if (w.count >= perMinute) return Math.max(1, Math.ceil((w.start + WINDOW_MS - t) / 1000));
        w.count++;
        return undefined;
    };
}
