// What every HTTP answer of the API carries, on the gateway and on direct canister reads.

/** The API's version (spec: Versioning); package.json says the same, and a test holds them equal. */
export const API_VERSION = '1.8.0';

/** Open CORS on every API response (rule E1). */
const CORS_HEADERS = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Headers': 'Content-Type, X-API-Key, X-Game-ID, X-Session-Token, Authorization',
    'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
} as const;

/** Headers of every API response: CORS and the version. */
export const API_HEADERS = { ...CORS_HEADERS, 'X-API-Version': API_VERSION } as const;

/**
 * Direct canister reads let a page on another origin read every header, the IC-Certificate
 * among them, so that a browser can verify the answer itself (CORS hides all but a few otherwise).
 */
export const DIRECT_READ_EXPOSE_HEADERS = '*';

/** Direct canister reads of a board (R2: edge-cached for about 30 s). */
export const DIRECT_READ_CACHE_CONTROL = 'public, max-age=30';

/**
 * A game's direct reads are rendered and certified at most once per this many seconds (only the
 * paths read lately, only when the game changed): a direct read on the certifying domain is at
 * most this far behind the canister, plus what the edge caches (DIRECT_READ_CACHE_CONTROL), the
 * same as a gateway read (R2: cached about 30 s). One render a window costs a busy game ~2,880
 * renders a day instead of ~28,800 at 3 s (README: What it costs on the IC).
 */
export const DIRECT_READ_WINDOW_SECONDS = 30;
