// Input schemas at the edge: request bodies, path ids and query parameters are checked here,
// and a failure names the field (400) before anything reaches the canister.
import { z } from 'zod';

import { ApiFailure } from './errors';

export const PATH_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const PLAYER_ID = /^[A-Za-z0-9_-]{1,100}$/;

const COUNT = 'must be a non-negative integer no larger than 9007199254740991';

export const count = z.number({ error: COUNT }).int({ error: COUNT }).min(0, { error: COUNT }).max(Number.MAX_SAFE_INTEGER, { error: COUNT });
export const playerId = z.string({ error: 'must be a string' }).regex(PLAYER_ID, { error: 'must be 1-100 letters, digits, underscores or hyphens' });
export const pathId = z.string({ error: 'must be a string' }).regex(PATH_ID, { error: 'must be 1-64 letters, digits, underscores or hyphens' });
/** Optional in the contract; JSON null counts as absent (some engines send null for "no value"). */
export const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/** Validates `value` against `schema`; the first problem becomes a 400 naming its field. */
export function parse<T extends z.ZodType>(schema: T, value: unknown, what = 'body'): z.output<T> {
    if (what === 'body' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
        throw new ApiFailure(400, 'The request body must be a JSON object');
    }
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    const field = issue.path.length > 0 ? issue.path.join('.') : what;
    const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
    throw new ApiFailure(400, `Invalid ${field}: ${message}`);
}

/** A path id checked against the contract's pattern (400 before the canister). */
export function checkPathId(value: string, name: string, pattern: RegExp = PATH_ID): string {
    if (!pattern.test(value)) throw new ApiFailure(400, `Invalid ${name} in path: must match ${pattern.source}`);
    return value;
}

/** `?limit=`: absent gives the default; numbers clamp to 1..1000; anything else is a 400. */
export function limitParam(value: unknown, fallback = 100): number {
    if (value === undefined || value === '') return fallback;
    const n = typeof value === 'string' && /^-?[0-9]+$/.test(value) ? Number(value) : NaN;
    if (!Number.isFinite(n)) throw new ApiFailure(400, 'Invalid limit: must be an integer');
    return Math.max(1, Math.min(1000, n));
}

export function sortParam(value: unknown): 'score' | 'streak' {
    if (value === undefined || value === '' || value === 'score') return 'score';
    if (value === 'streak') return 'streak';
    throw new ApiFailure(400, 'Invalid sort: must be score or streak');
}
