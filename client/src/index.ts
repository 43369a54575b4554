// @leaderboard/client: the game leaderboard API for web games and Node, as typed calls. One
// createClient() per game: an anonymous player id kept in a store, device-code sign-in whose
// session is then sent with every player call, retries, and direct board reads from the
// canister that can prove (verify: true) they came from it unchanged.
import { API_HEADERS } from '../../contract/http';
import { LeaderboardError, kindOf } from './errors';
import { RATE_LIMIT_WAIT_MS, seg, transport, type RequestSpec } from './transport';
import type * as T from './types';

export { LeaderboardError, type ErrorKind } from './errors';
export { formatScore } from './format';
export type * from './types';

/** Where the client keeps the player id and the session: `localStorage` has this shape. */
export interface KeyValueStore {
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
    removeItem(key: string): void;
}

export interface ClientOptions {
    /** The API base URL ({base_url}), e.g. `https://api.example.com`. The session goes there and nowhere else. */
    baseUrl: string;
    /** The game's API key (`key_<gameId>_<digits>`): it ships in the game, it is not a secret. */
    apiKey: string;
    gameId: string;
    /** The canister URL for direct reads: `https://<canister-id>.icp0.io`, or locally `http://127.0.0.1:4943/?canisterId=<id>`. */
    canisterUrl?: string;
    /** Whose root key verifies direct reads: the IC's (default) or, `local`, the replica's own (fetched from it). */
    network?: 'ic' | 'local';
    /** Where the player id and session live; default `localStorage` in a browser, else memory. */
    store?: KeyValueStore;
    /** Retries of reads and submits after 5xx, 503, 429 or no answer (default 3, with backoff and jitter). */
    retries?: number;
    /** Wait out the 2-second submit limit and send once more (default true); false throws `rate-limited`. */
    waitOutRateLimit?: boolean;
    /** Called when the session ends (sign-out, account deleted, or a 401/403 that killed it). */
    onSessionEnd?: () => void;
    /** For tests and unusual runtimes: fetch, the waits, randomness and the clock (ms). */
    fetch?: typeof fetch;
    sleep?: (ms: number) => Promise<void>;
    random?: () => number;
    now?: () => number;
}

export interface SignInCode {
    /** Show it to the player (`XXXX-XXXX`). */
    userCode: string;
    /** The page where the player enters it. */
    verificationUrl: string;
    /** The same page with the code filled in (the QR code's target). */
    verificationUrlComplete: string;
    /** A `data:image/png;base64,...` QR code of verificationUrlComplete: put it in an <img src>. */
    qrDataUrl: string;
    /** Seconds the code lives. */
    expiresIn: number;
}

export interface DirectReadOptions {
    /** Check the IC certificate of the answer; throws kind `not-verified` when it does not hold. */
    verify?: boolean;
}

export type Client = ReturnType<typeof createClient>;

function memoryStore(): KeyValueStore {
    const m = new Map<string, string>();
    return {
        getItem: (k) => m.get(k) ?? null,
        setItem: (k, v) => void m.set(k, v),
        removeItem: (k) => void m.delete(k),
    };
}

function defaultStore(): KeyValueStore {
    try {
        const ls = (globalThis as { localStorage?: KeyValueStore }).localStorage;
        if (ls !== undefined) return ls;
    } catch {
        // storage disabled (privacy mode): memory instead
    }
    return memoryStore();
}

const hex8 = (random: () => number): string => {
    const bytes = new Uint8Array(4);
    if (globalThis.crypto?.getRandomValues !== undefined) globalThis.crypto.getRandomValues(bytes);
    else for (let i = 0; i < 4; i++) bytes[i] = Math.floor(random() * 256);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
};

/** The headers a canister's direct read carries (the certified ones); whatever a relay adds is left out. */
/** What a canister saw of a direct read's URL: its path and query, without the local replica's `canisterId`. */
function seenBy(url: URL): string {
    const pairs = url.search
        .slice(1)
        .split('&')
        .filter((pair) => pair !== '' && pair.split('=')[0].toLowerCase() !== 'canisterid');
    return `${url.pathname}${pairs.length === 0 ? '' : `?${pairs.join('&')}`}`;
}

const CANISTER_HEADERS = new Set([
    ...Object.keys(API_HEADERS).map((h) => h.toLowerCase()),
    'content-type',
    'cache-control',
    'retry-after',
    'access-control-expose-headers',
    'ic-certificate',
    'ic-certificateexpression',
]);

export function createClient(options: ClientOptions) {
    const { gameId } = options;
    const store = options.store ?? defaultStore();
    const random = options.random ?? Math.random;
    const now = options.now ?? Date.now;
    const fetcher = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
    const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    // The session is kept per API origin too: a client of another baseUrl never finds (or sends) it.
    const origin = new URL(options.baseUrl).origin;
    const keys = { player: `leaderboard:${gameId}:playerId`, session: `leaderboard:${origin}:${gameId}:session` };

    const newPlayerId = (): string => {
        const id = `dev_${Math.floor(now() / 1000)}_${hex8(random)}`;
        store.setItem(keys.player, id);
        return id;
    };
    const playerId = (): string => store.getItem(keys.player) ?? newPlayerId();
    const session = (): string | undefined => store.getItem(keys.session) ?? undefined;
    const endSession = (): void => {
        if (session() === undefined) return;
        store.removeItem(keys.session);
        options.onSessionEnd?.();
    };

    const request = transport({
        baseUrl: options.baseUrl,
        apiKey: options.apiKey,
        gameId,
        retries: options.retries ?? 3,
        waitOutRateLimit: options.waitOutRateLimit ?? true,
        fetch: fetcher,
        sleep,
        random,
        session,
        // Only the session that died: not one signed in meanwhile.
        sessionEnded: (token) => {
            if (session() === token) endSession();
        },
    });
    const get = <R>(path: string, query?: RequestSpec['query'], auth: RequestSpec['auth'] = 'player') =>
        request<R>({ method: 'GET', path, query, auth, idempotent: true });
    const send = <R>(
        method: RequestSpec['method'],
        path: string,
        body: unknown,
        auth: RequestSpec['auth'],
        idempotent: boolean,
    ) => request<R>({ method, path, body, auth, idempotent });
    const board = (boardId: string): string => `/games/${seg(gameId)}/scoreboards/${seg(boardId)}`;

    /** A GET of a board path straight from the canister (no headers, no credentials), verified when asked. */
    async function direct<R>(path: string, query: RequestSpec['query'], o: DirectReadOptions = {}): Promise<R> {
        if (options.canisterUrl === undefined)
            throw new LeaderboardError('invalid', 'Invalid canisterUrl: direct reads need it in createClient()', 0);
        const base = new URL(options.canisterUrl);
        const url = new URL(base);
        url.pathname = `${base.pathname.replace(/\/+$/, '')}${path}`;
        for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
        const read = async (init?: RequestInit): Promise<Response> => {
            try {
                return await fetcher(url.toString(), init);
            } catch (cause) {
                throw new LeaderboardError('unavailable', `No answer from ${base.origin}: ${String(cause)}`, 0, {
                    cause,
                });
            }
        };
        // Past the browser's HTTP cache (the edge still caches, R2): a board read shows the board as it is.
        let res = await read({ cache: 'no-cache' });
        // A path's first read is rendered by an update call, certified by consensus for the IC's
        // HTTP gateway but carrying no certificate of its own: the next read is a certified query.
        if (o.verify === true && !res.headers.has('ic-certificate')) {
            await res.arrayBuffer();
            res = await read({ cache: 'no-store' }); // not the first answer again from the HTTP cache
        }
        let body: Uint8Array = new Uint8Array(await res.arrayBuffer());
        // The canister that answered: a game on another canister is redirected there (302), and
        // fetch reports where it ended. Its certificate is checked against that canister.
        const answered = res.url === '' ? url : new URL(res.url);
        const seen = seenBy(answered);
        if (o.verify === true) {
            const canisterId = answered.searchParams.get('canisterId') ?? answered.hostname.split('.')[0];
            const headers: [string, string][] = [];
            res.headers.forEach((value, name) => {
                if (CANISTER_HEADERS.has(name.toLowerCase())) headers.push([name.toLowerCase(), value]);
            });
            try {
                if (answered.hostname.split('.')[1] === 'raw') throw new Error('the raw domain is never certified');
                const v = await import('./verify');
                const rootKey = await v.rootKeyFor(options.network ?? 'ic', base.origin, fetcher);
                body = await v.verifiedBody({
                    url: seen,
                    status: res.status,
                    headers,
                    body,
                    canisterId,
                    rootKey,
                    nowMs: now(),
                });
            } catch (cause) {
                throw new LeaderboardError(
                    'not-verified',
                    `NOT VERIFIED: the answer for ${seen} from ${answered.origin} failed certificate verification (${cause instanceof Error ? cause.message : String(cause)}). Do not trust it.`,
                    res.status,
                    { cause },
                );
            }
        }
        let envelope: { ok?: unknown; data?: unknown; error?: unknown } | undefined;
        try {
            envelope = JSON.parse(new TextDecoder().decode(body)) as typeof envelope;
        } catch {
            envelope = undefined;
        }
        if (res.status === 200 && envelope?.ok === true) return envelope.data as R;
        const message =
            typeof envelope?.error === 'string' ? envelope.error : `HTTP ${res.status} without the API's JSON`;
        throw new LeaderboardError(
            envelope === undefined ? 'unknown' : kindOf(res.status, message, false),
            message,
            res.status,
        );
    }

    const client = {
        /** The anonymous player id (`dev_<unix seconds>_<8 hex>`), made and stored on first use. */
        get playerId(): string {
            return playerId();
        },
        /** Whether a signed-in session is kept (and sent instead of the API key). */
        get signedIn(): boolean {
            return session() !== undefined;
        },

        // ---- scores and boards ----------------------------------------------------------------------

        /** POST /scores: fans out (S1), or one targeted board with scoreboardId (S2). Safe to retry (S5). */
        submitScore(input: Omit<T.SubmitInput, 'streak'> & { streak?: number }): Promise<T.SubmitReply> {
            return send('POST', '/scores', { playerId: playerId(), gameId, streak: 0, ...input }, 'player', true);
        },
        /**
         * GET /leaderboard: the all-time board by score or streak. `filter: '<key>:<value>'` (on
         * every board read here): only the entries with that metadata value, ranked among themselves.
         */
        leaderboard(o: { sort?: T.SortBy; limit?: number; filter?: string } = {}): Promise<T.Leaderboard> {
            return get('/leaderboard', o);
        },
        /** GET /games/{g}/scoreboards: the game's boards. */
        boards(): Promise<T.BoardList> {
            return get(`/games/${seg(gameId)}/scoreboards`, undefined, 'key');
        },
        /** GET /games/{g}/scoreboards/{b}: one board's current period (`offset` pages past the top). */
        board(boardId: string, o: { limit?: number; offset?: number; filter?: string } = {}): Promise<T.Board> {
            return get(board(boardId), o, 'key');
        },
        /** The archived periods of a timed board, newest first. */
        archives(boardId: string): Promise<T.ArchiveList> {
            return get(`${board(boardId)}/archives`, undefined, 'key');
        },
        /** One archived period: `latest` or an archiveId from archives(). */
        archive(boardId: string, archiveId = 'latest', o: { limit?: number } = {}): Promise<T.Archive> {
            return get(`${board(boardId)}/archives/${seg(archiveId)}`, o, 'key');
        },
        /** How many periods each timed board archived. */
        archiveStats(): Promise<T.ArchiveStats> {
            return get(`/games/${seg(gameId)}/archives/stats`, undefined, 'key');
        },
        /** The entries just above and below this player on a board (404 `not-found` before their first entry). */
        aroundMe(
            boardId: string,
            o: { before?: number; after?: number; percentile?: boolean; filter?: string } = {},
        ): Promise<T.Around> {
            return get(`${board(boardId)}/around`, session() === undefined ? { playerId: playerId(), ...o } : o);
        },
        /**
         * The player's league division on a league board: their tier, the division's table in board
         * order with each entry's zone (promotion, stay, demotion) and their own place (`division`
         * null before their first submit of the period; `not-found` on a board that is no league).
         */
        division(boardId: string): Promise<T.Division> {
            return get(`${board(boardId)}/division`, session() === undefined ? { playerId: playerId() } : {});
        },
        /**
         * A set of players (friends, a clan: up to 100 ids) on a board, ranked among themselves, each
         * with their global rank and percentile; ids without an entry this period are in `missing`.
         */
        friends(boardId: string, playerIds: string[]): Promise<T.PlayerSet> {
            return send('POST', `${board(boardId)}/players`, { playerIds }, 'player', true);
        },

        /**
         * Reports an entry of a board (cheating, an impossible score, an offensive name, ...): named
         * by its nickname, with the rank seen. Safe to retry: a repeat changes nothing but the reason
         * and text. The reporter must have played the game.
         */
        report(boardId: string, input: T.ReportInput): Promise<T.Message> {
            return send(
                'POST',
                `${board(boardId)}/reports`,
                { playerId: playerId(), gameId, ...input },
                'player',
                true,
            );
        },

        // ---- the player ---------------------------------------------------------------------------

        /** The player's profile (the signed-in account's when signed in). */
        profile(): Promise<T.Profile | T.SessionProfile> {
            return session() === undefined
                ? get(`/players/${seg(playerId())}/profile`, undefined, 'key')
                : get('/auth/profile', undefined, 'session');
        },
        /** The player's rank on the all-time board, the account's when signed in (`not-found` before the first submit). */
        rank(o: { sort?: T.SortBy; percentile?: boolean } = {}): Promise<T.PlayerRank> {
            return get(`/players/${seg(playerId())}/rank`, o, 'player');
        },
        /** The signed-in player's rank on one board. */
        boardRank(boardId: string, o: { percentile?: boolean; filter?: string } = {}): Promise<T.BoardRank> {
            return get(`${board(boardId)}/rank`, o, 'session');
        },
        /** Renames the player; a taken name gets a suffix (N2): the reply says the name applied. */
        setNickname(nickname: string): Promise<T.NicknameReply> {
            return session() === undefined
                ? send('PUT', `/players/${seg(playerId())}/nickname`, { nickname }, 'key', false)
                : send('PUT', '/profile/nickname', { nickname }, 'session', false);
        },
        /** The player's rewards (prizes granted at boards' closes, the account's when signed in): unclaimed first, newest first. */
        rewards(): Promise<T.Rewards> {
            return get(`/players/${seg(playerId())}/rewards`, undefined, 'player');
        },
        /**
         * Claims one reward, once: `alreadyClaimed: true` on any later claim (safe to retry: give
         * the reward only on false). The game's `rewardClaims` may keep claims to signed-in players
         * or to its server (then `invalid` with a session, `unauthorized` with the API key).
         */
        claimReward(grantId: string): Promise<T.RewardClaim> {
            return send('POST', `/players/${seg(playerId())}/rewards/${seg(grantId)}/claim`, {}, 'player', true);
        },
        /** Unlocks achievements (idempotent, A1): one id or up to 100. */
        unlockAchievements(ids: string | string[]): Promise<T.UnlockReply> {
            const body = typeof ids === 'string' ? { achievementId: ids } : { achievementIds: ids };
            return send('POST', '/achievements', { playerId: playerId(), gameId, ...body }, 'player', true);
        },
        /** Starts a play session (time validation): pass `.ok` as playSessionToken of the submit. */
        startPlaySession(): Promise<T.PlaySessionStarted> {
            return send('POST', '/play-sessions/start', { playerId: playerId(), gameId }, 'player', false);
        },
        /** Ends a play session (idempotent; an unknown token is `not-found`). */
        endPlaySession(playSessionToken: string): Promise<T.Message> {
            return send('POST', '/play-sessions/end', { playSessionToken }, 'player', true);
        },

        // ---- the game -----------------------------------------------------------------------------

        game(): Promise<T.GameInfo> {
            return get('/game', undefined, 'key');
        },
        gameStats(): Promise<T.GameStats> {
            return get('/game/stats', undefined, 'key');
        },
        /** Platform submission counts (no credentials). */
        stats(): Promise<T.PlatformStats> {
            return get('/stats', undefined, 'none');
        },
        health(): Promise<T.Health> {
            return get('/health', undefined, 'none');
        },

        // ---- sign-in ------------------------------------------------------------------------------

        /**
         * Device-code sign-in in one call: shows the code through `onCode`, polls at the server's
         * interval until the player approved it on another device (or the code expired: kind
         * `expired`), keeps the session and, unless `migrate: false`, merges this device's
         * anonymous player into the account.
         */
        async signIn(o: {
            onCode: (code: SignInCode) => void;
            nickname?: string;
            migrate?: boolean;
            signal?: AbortSignal;
        }): Promise<T.Approval> {
            const started = await send<T.DeviceCode>(
                'POST',
                '/auth/device/code',
                { gameId, nickname: o.nickname },
                'game',
                false,
            );
            o.onCode({
                userCode: started.user_code,
                verificationUrl: started.verification_url,
                verificationUrlComplete: started.verification_url_complete,
                qrDataUrl: started.qr_data_url,
                expiresIn: started.expires_in,
            });
            for (;;) {
                await sleep(Math.max(1, started.interval) * 1000);
                if (o.signal?.aborted === true) throw new LeaderboardError('expired', 'Sign-in was cancelled', 0);
                let approval: T.Approval;
                try {
                    approval = await send<T.Approval>(
                        'POST',
                        '/auth/device/token',
                        { device_code: started.device_code },
                        'game',
                        true,
                    );
                } catch (e) {
                    if (e instanceof LeaderboardError && e.kind === 'pending') continue;
                    throw e;
                }
                const anonymous = store.getItem(keys.player);
                store.setItem(keys.session, approval.sessionId);
                if (o.migrate !== false && anonymous !== null) {
                    try {
                        await client.migrateAccount();
                    } catch (e) {
                        // Nothing to merge (no profile yet) is fine; a dead session is not.
                        if (!(e instanceof LeaderboardError) || e.kind === 'session-dead') throw e;
                    }
                }
                return approval;
            }
        },
        /** Merges this device's anonymous player into the signed-in account; the old id is retired, so a new one is made. */
        async migrateAccount(): Promise<T.Migrated> {
            const reply = await send<T.Migrated>(
                'POST',
                '/migrate-account',
                { deviceId: playerId() },
                'session',
                false,
            );
            newPlayerId();
            return reply;
        },
        /** Ends the session here and on the server; the player is anonymous again. */
        async signOut(): Promise<void> {
            if (session() === undefined) return;
            try {
                await send('POST', '/auth/logout', undefined, 'session', false);
            } finally {
                endSession();
            }
        },
        /** Deletes the signed-in account; the player is anonymous again. */
        async deleteAccount(): Promise<T.Message> {
            const reply = await send<T.Message>('DELETE', '/auth/account', undefined, 'session', false);
            endSession();
            return reply;
        },

        // ---- direct reads -------------------------------------------------------------------------

        /** Reads straight from the canister URL (no credentials); `verify: true` checks the IC certificate. */
        direct: {
            boards: (o?: DirectReadOptions) => direct<T.BoardList>(`/games/${seg(gameId)}/scoreboards`, undefined, o),
            /** With `filter` the answer is not certified (`verify: true` cannot check it). */
            board: (
                boardId: string,
                o: DirectReadOptions & { limit?: number; offset?: number; filter?: string } = {},
            ) => direct<T.Board>(board(boardId), { limit: o.limit, offset: o.offset, filter: o.filter }, o),
            archives: (boardId: string, o?: DirectReadOptions) =>
                direct<T.ArchiveList>(`${board(boardId)}/archives`, undefined, o),
            archive: (boardId: string, archiveId = 'latest', o: DirectReadOptions & { limit?: number } = {}) =>
                direct<T.Archive>(`${board(boardId)}/archives/${seg(archiveId)}`, { limit: o.limit }, o),
            archiveStats: (o?: DirectReadOptions) =>
                direct<T.ArchiveStats>(`/games/${seg(gameId)}/archives/stats`, undefined, o),
            /** Around-me of the anonymous player (never certified: it depends on the player). */
            aroundMe: (boardId: string, o: { before?: number; after?: number; filter?: string } = {}) =>
                direct<T.Around>(`${board(boardId)}/around`, { playerId: playerId(), ...o }),
            /** The anonymous player's league division (never certified: it depends on the player). */
            division: (boardId: string) => direct<T.Division>(`${board(boardId)}/division`, { playerId: playerId() }),
        },
    };
    return client;
}

/** How long the client waits out the 2-second submit limit (ms). */
export { RATE_LIMIT_WAIT_MS };
