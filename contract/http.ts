// What every HTTP answer of the API carries, on the gateway and on direct canister reads.

/** The API's version (spec: Versioning); package.json says the same, and a test holds them equal. */
export const API_VERSION = '1.8.0';

/** decisions.md: CORS on every API response. */
const CORS_HEADERS = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Headers': 'Content-Type, X-API-Key, X-Game-ID, X-Session-Token, Authorization',
    'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
} as const;

/** Headers of every API response: CORS and the version. */
export const API_HEADERS = { ...CORS_HEADERS, 'X-API-Version': API_VERSION } as const;

/** Direct canister reads of a board (R2: edge-cached for about 30 s). */
export const DIRECT_READ_CACHE_CONTROL = 'public, max-age=30';

/**
 * Direct reads are served from a snapshot the canister renders and certifies every this many
 * seconds (only what changed); a direct read is at most about this stale.
 */
export const DIRECT_READ_RENDER_SECONDS = 3;
