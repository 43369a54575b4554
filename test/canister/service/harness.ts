// A service context on plain Maps with a clock the test moves (native tests of the rules).
import { rotateServerKey } from '../../../canister/service/server-keys';
import { createHash, randomBytes } from 'node:crypto';

import type { Identity } from '../../../contract/canister';
import { stringify } from '../../../canister/domain/json';
import { registerGame } from '../../../canister/service/games';
import { writeSnapshot } from '../../../canister/state/snapshot';
import { loadGames } from '../../../canister/state/startup';
import { memoryStore } from '../../../canister/state/store';
import { newCtx, type Ctx } from '../../../canister/state/context';
import { Fail } from '../../../canister/domain/fail';
import { flushCallWrites } from '../../../canister/service/flush';
import { moveInChunk, moveInEnd, moveOutBegin, moveOutChunk, moveOutEnd } from '../../../canister/service/move';

/** One second in the canister's time unit (µs). */
export const S = 1_000_000;

export interface Harness extends Ctx {
    time: number;
    advance(seconds: number): void;
}

export function harness(startIso = '2026-03-04T12:00:00Z'): Harness {
    const h: Harness = Object.assign(
        newCtx(memoryStore(), { now: () => h.time, random: (n) => new Uint8Array(randomBytes(n)) }),
        {
            time: Date.parse(startIso) * 1e3,
            advance(seconds: number) {
                h.time += seconds * S;
            },
        },
    );
    return h;
}

export function withGame(h: Harness, gameId = 'my-game'): string {
    return registerGame(h, { developerId: 'dev-1', gameId, name: 'My Game' }).apiKey;
}

/** A harness with these games registered (by dev-1). */
export function harnessWith(...gameIds: string[]): Harness {
    const h = harness();
    for (const gameId of gameIds) withGame(h, gameId);
    return h;
}

/**
 * Gives a game a reader of its events (a server key): games without one record none
 * (service/events.ts hasEventReader). Returns the key.
 */
export function withReader(h: Harness, gameId: string): string {
    return rotateServerKey(h, { gameId }).serverKey;
}

/** What `view` reads is the same after an upgrade from a snapshot, then after one rebuilt from the records. */
export function expectSameAfterUpgrades(h: Harness, view: () => unknown): void {
    const before = view();
    writeSnapshot(h);
    expect(loadGames(h)).toBe('snapshot');
    expect(view()).toEqual(before);
    expect(loadGames(h)).toBe('records');
    expect(view()).toEqual(before);
}

/** What `view` reads is the same once the tables are rebuilt from the records (an upgrade without a snapshot). */
export function expectSameFromRecords(h: Harness, view: () => unknown): void {
    const before = view();
    h.games.clear();
    expect(loadGames(h)).toBe('records');
    expect(view()).toEqual(before);
}

/** The current API key of a game (player writes carry it). */
export function key(h: Harness, gameId: string): string {
    return h.games.get(gameId)?.record.apiKey ?? 'key_unknown-game_0000000000000000';
}

/** A reply as a client sees it: JSON text and back (times become integer nanoseconds). */
export function present<T>(value: T): T {
    return JSON.parse(stringify(value)) as T;
}

/** The error a call throws: `{ status, message }`. */
export function failure(fn: () => unknown): { status: number; message: string } {
    try {
        fn();
    } catch (e) {
        if (e instanceof Fail) return { status: e.status, message: e.message };
        throw e;
    }
    throw new Error('expected the call to fail');
}

/** The SHA-256 (hex) the canister keeps of a token it handed out. */
export const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Someone signed in with an identity provider, as a gateway passes them on. */
export const person = (subject: string, provider = 'google', email = `${subject}@example.com`): Identity => ({
    issuer: 'https://idp.example',
    subject,
    email,
    provider,
});

/** Moves game `gameId` from `src` to `dst` (whose principal is `to`), chunk by chunk, each call flushed like the canister's. */
export function moveGame(src: Harness, dst: Harness, gameId: string, to: string): { chunks: number } {
    const call = <T>(h: Harness, fn: () => T): T => {
        const out = fn();
        flushCallWrites(h);
        return out;
    };
    let begun = call(src, () => moveOutBegin(src, { gameId }));
    while (!begun.ready) begun = call(src, () => moveOutBegin(src, { gameId }));
    for (let index = 0; index < begun.chunks; index++) {
        const { data } = moveOutChunk(src, { gameId, index });
        call(dst, () => moveInChunk(dst, { gameId, index, data }));
    }
    call(dst, () => moveInEnd(dst, { gameId, chunks: begun.chunks, checksum: begun.checksum }));
    call(src, () => moveOutEnd(src, { gameId, to }));
    return { chunks: begun.chunks };
}
