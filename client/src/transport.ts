// One request to the API: the right credential headers (only ever to baseUrl's origin), the
// envelope turned into data or a LeaderboardError, retries with backoff and full jitter on 5xx,
// 503, 429 and network errors for requests that are safe to repeat, and the 2-second submit
// limit waited out once.
import { LeaderboardError, kindOf } from './errors';

/** Who a request is sent as: the player (session when signed in, else the key), the key, the session, the game only, nobody. */
export type Auth = 'player' | 'key' | 'session' | 'game' | 'none';

export interface RequestSpec {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    path: string;
    auth: Auth;
    body?: unknown;
    query?: Record<string, string | number | boolean | undefined>;
    /** Safe to send again after a 5xx or a lost answer (reads, submits: S5, unlocks: A1). */
    idempotent: boolean;
}

export interface TransportOptions {
    baseUrl: string;
    apiKey: string;
    gameId: string;
    /** Retries after the first attempt for idempotent requests (default 3). */
    retries: number;
    waitOutRateLimit: boolean;
    fetch: typeof fetch;
    sleep: (ms: number) => Promise<void>;
    random: () => number;
    /** The session token, if signed in. */
    session(): string | undefined;
    /** A request that carried this session token got 401/403: that session is over. */
    sessionEnded(token: string): void;
}

/** The 2 s submit limit (L1), plus a little for clocks that disagree. */
export const RATE_LIMIT_WAIT_MS = 2_100;
const BACKOFF_BASE_MS = 250;
const BACKOFF_MAX_MS = 8_000;

/** `https://host/api/` -> `https://host/api` (paths start with /). */
export const trimBase = (url: string): string => url.replace(/\/+$/, '');

export function queryString(query: Record<string, string | number | boolean | undefined> = {}): string {
    const parts = Object.entries(query)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
    return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** A path segment, encoded (ids never get to reach another path or host). */
export const seg = (value: string): string => encodeURIComponent(value);

export function transport(o: TransportOptions): <T>(spec: RequestSpec) => Promise<T> {
    const base = trimBase(o.baseUrl);
    const origin = new URL(base).origin;

    return async function request<T>(spec: RequestSpec): Promise<T> {
        const url = `${base}${spec.path}${queryString(spec.query)}`;
        // Credentials go to baseUrl's origin only, whatever a path holds.
        if (new URL(url).origin !== origin) throw new LeaderboardError('invalid', `Invalid path: ${spec.path}`, 0);
        let waitedOutRateLimit = false;
        for (let attempt = 0; ; attempt++) {
            const headers: Record<string, string> = {};
            if (spec.body !== undefined) headers['Content-Type'] = 'application/json';
            const session = o.session();
            let sentSession: string | undefined;
            if (spec.auth !== 'none') headers['X-Game-ID'] = o.gameId;
            if (spec.auth === 'session' || (spec.auth === 'player' && session !== undefined)) {
                if (session === undefined)
                    throw new LeaderboardError('session-dead', 'Not signed in: sign in first', 0);
                headers['X-Session-Token'] = session;
                sentSession = session;
            } else if (spec.auth === 'player' || spec.auth === 'key') headers['X-API-Key'] = o.apiKey;

            const retryLeft = spec.idempotent && attempt < o.retries;
            const backoff = (): Promise<void> =>
                o.sleep(o.random() * Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempt + 1)));
            let res: Response;
            try {
                res = await o.fetch(url, {
                    method: spec.method,
                    headers,
                    body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
                    // A redirect would carry the headers to wherever it points: never follow one.
                    redirect: 'error',
                });
            } catch (cause) {
                if (retryLeft) {
                    await backoff();
                    continue;
                }
                throw new LeaderboardError('unavailable', `No answer from ${base}: ${String(cause)}`, 0, { cause });
            }
            let envelope: { ok?: unknown; data?: unknown; error?: unknown } | undefined;
            try {
                envelope = (await res.json()) as typeof envelope;
            } catch {
                envelope = undefined;
            }
            if (res.status === 200 && envelope?.ok === true) return envelope.data as T;
            const message =
                typeof envelope?.error === 'string' ? envelope.error : `HTTP ${res.status} without the API's JSON`;
            const kind =
                envelope === undefined && res.status < 500
                    ? 'unknown'
                    : kindOf(res.status, message, sentSession !== undefined);
            if (kind === 'unavailable' && retryLeft) {
                await backoff();
                continue;
            }
            if (kind === 'rate-limited' && o.waitOutRateLimit && !waitedOutRateLimit) {
                waitedOutRateLimit = true;
                await o.sleep(RATE_LIMIT_WAIT_MS);
                continue;
            }
            if (kind === 'session-dead' && sentSession !== undefined) o.sessionEnded(sentSession);
            throw new LeaderboardError(kind, message, res.status);
        }
    };
}
