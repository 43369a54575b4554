// A small time-to-live cache with a size bound (board reads for READ_CACHE_TTL_SECONDS, 30 s by
// default; API keys and sessions for 5 s: CREDENTIAL_TTL_MS in routes/auth.ts).

export interface TtlCache<V> {
    get(key: string): V | undefined;
    set(key: string, value: V, ttlMs?: number): void;
    delete(key: string): void;
    clear(): void;
}

export function ttlCache<V>(defaultTtlMs: number, maxEntries = 10_000, now: () => number = Date.now): TtlCache<V> {
    const entries = new Map<string, { value: V; expires: number }>();
    return {
        get(key) {
            const entry = entries.get(key);
            if (entry === undefined) return undefined;
            if (entry.expires <= now()) {
                entries.delete(key);
                return undefined;
            }
            return entry.value;
        },
        set(key, value, ttlMs = defaultTtlMs) {
            if (ttlMs <= 0) return;
            entries.delete(key);
            entries.set(key, { value, expires: now() + ttlMs });
            // Map keeps insertion order: the first entry is the oldest.
            while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
        },
        delete: (key) => void entries.delete(key),
        clear: () => entries.clear(),
    };
}
