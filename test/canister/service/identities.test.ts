// The identity registry between a directory and a shard, both run natively (their real service
// code, the inter-canister call made by hand): ids shared, and a removal racing a sign-in or a move.
import type { Method, Result } from '../../../contract/canister';
import { signIn } from '../../../canister/service/accounts';
import type { Remote } from '../../../canister/service/directory';
import { accountForget, identityAccount, withRegistry } from '../../../canister/service/identities';
import { forgetAccount } from '../../../canister/service/merge';
import { resolveSession } from '../../../canister/service/accounts';
import { tokenHash } from '../../../canister/domain/sha256';
import { flushCallWrites } from '../../../canister/service/flush';
import { moveInChunk, moveInEnd, moveOutBegin, moveOutChunk } from '../../../canister/service/move';
import { leaderboard } from '../../../canister/service/reads';
import { failure, harness, hashOf, person, withGame, type Harness } from './harness';
import { submitBatch } from './submit';

function directoryAndShard(): { directory: Harness; shard: Harness } {
    const directory = harness();
    const shard = harness();
    shard.isShard = true;
    shard.store.meta.set('directory', 'directory-id');
    withGame(shard, 'game-b');
    return { directory, shard };
}

/** The shard's calls to its directory, answered by the directory's own code; `inFlight` runs between. */
function remoteTo(directory: Harness, inFlight: (answer: Result<unknown>) => void = () => undefined): Remote {
    return {
        self: 'shard-id',
        async call(_canisterId: string, method: Method, request: unknown) {
            if (method !== 'identity_account') throw new Error(`unexpected ${method}`);
            const answer: Result<unknown> = { ok: identityAccount(directory, request as never) };
            inFlight(answer);
            return answer;
        },
        createCanister: () => Promise.reject(new Error('not here')),
        uploadChunk: () => Promise.reject(new Error('not here')),
        clearChunkStore: () => Promise.reject(new Error('not here')),
        installChunkedCode: () => Promise.reject(new Error('not here')),
        cycles: () => 0n,
        setRunning: () => Promise.reject(new Error('not here')),
        takeSnapshot: () => Promise.reject(new Error('not here')),
        loadSnapshot: () => Promise.reject(new Error('not here')),
    };
}

const playerOf = (shard: Harness, sessionId: string) =>
    resolveSession(shard, { sessionHash: tokenHash(sessionId), gameId: 'game-b' }).playerId;

test("a shard's first sign-in of an identity takes the directory's account id", async () => {
    const { directory, shard } = directoryAndShard();
    const registered = identityAccount(directory, { identity: person('ann') });
    const approval = await withRegistry(shard, remoteTo(directory), () =>
        signIn(shard, 'game-b', person('ann'), undefined),
    );
    expect(playerOf(shard, approval.sessionId)).toBe(`@${registered.accountId}`);
    expect(approval.isNewUser).toBe(false);
});

test('a registry answer that crosses its account removal in flight does not bring the account back', async () => {
    const { directory, shard } = directoryAndShard();
    const old = identityAccount(directory, { identity: person('ann') }).accountId;
    // The directory answers with the old id, then removes the account and has the shard forget
    // it; the forget arrives before the answer.
    const racing = remoteTo(directory, () => {
        forgetAccount(directory, old);
        accountForget(shard, { accountId: old });
    });
    const refused = await withRegistry(shard, racing, () => signIn(shard, 'game-b', person('ann'), undefined)).then(
        () => undefined,
        (e: unknown) =>
            failure(() => {
                throw e;
            }),
    );
    expect(refused).toEqual({
        status: 503,
        message: 'This account was just removed. Sign in again to start a new one.',
    });
    expect(shard.store.accounts.get(old)).toBeUndefined();
    // Signing in again starts a new account, here and in the registry.
    const again = await withRegistry(shard, remoteTo(directory), () =>
        signIn(shard, 'game-b', person('ann'), undefined),
    );
    expect(playerOf(shard, again.sessionId)).not.toBe(`@${old}`);
    expect(again.isNewUser).toBe(true);
});

test.each(['before its records arrive', 'after its records arrived, before the game is active'])(
    'an account removed while its game moves here does not live on here (forgotten %s)',
    (when) => {
        const src = harness();
        const dst = harness();
        dst.isShard = true;
        const step = <T>(h: Harness, fn: () => T): T => {
            const out = fn();
            flushCallWrites(h);
            return out;
        };
        withGame(src, 'game-m');
        const { sessionId } = step(src, () => signIn(src, 'game-m', person('ann'), 'Ann'));
        const sessionHash = hashOf(sessionId);
        step(src, () => submitBatch(src, { submits: [{ gameId: 'game-m', sessionHash, score: 50, streak: 1 }] }));
        const accountId = resolveSession(src, { gameId: 'game-m', sessionHash }).playerId.slice(1);
        let begun = step(src, () => moveOutBegin(src, { gameId: 'game-m' }));
        while (!begun.ready) begun = step(src, () => moveOutBegin(src, { gameId: 'game-m' }));
        // The account is removed while the game's records are on their way: the shard forgets it.
        const forget = () => step(dst, () => accountForget(dst, { accountId }));
        if (when.startsWith('before')) forget();
        for (let index = 0; index < begun.chunks; index++) {
            const { data } = moveOutChunk(src, { gameId: 'game-m', index });
            step(dst, () => moveInChunk(dst, { gameId: 'game-m', index, data }));
        }
        if (!when.startsWith('before')) forget();
        step(dst, () => moveInEnd(dst, { gameId: 'game-m', chunks: begun.chunks, checksum: begun.checksum }));
        expect(leaderboard(dst, { gameId: 'game-m' }).leaderboard).toEqual([]);
        expect(dst.store.accounts.get(accountId)).toBeUndefined();
        expect(failure(() => resolveSession(dst, { gameId: 'game-m', sessionHash })).status).toBe(401);
    },
);
