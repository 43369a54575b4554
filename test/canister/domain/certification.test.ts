// The certification modules natively: streaming SHA-256 against Node's, the hash tree's digests
// and witnesses against @dfinity/agent's reconstruction and lookups, the CBOR against
// @dfinity/cbor, the HTTP certification hashes against the specification's definitions computed
// here independently, and the snapshot of direct reads end to end (certificate aside).
import { createHash, randomBytes } from 'node:crypto';

import { LookupPathStatus, lookup_path, reconstruct, type HashTree as AgentTree } from '@dfinity/agent';
import { decode as cborDecode } from '@dfinity/cbor';

import {
    encodePath,
    encodeTree,
    newLeaf,
    newLevel,
    nodeDigest,
    removeAt,
    setAt,
    treeDigest,
    witness,
    type HashTree,
} from '../../../canister/domain/certification/hash-tree';
import {
    FULL_EXPRESSION,
    SKIP_EXPRESSION,
    base64,
    certifiedQuery,
    pathKeys,
    requestHash,
    responseHeadersHash,
    skipWitnessPaths,
} from '../../../canister/domain/certification/http';
import { Sha256, sha256 } from '../../../canister/domain/certification/sha256';
import { encodeHttpReply } from '../../../canister/domain/http-response';
import { createDirectReads, isRawHost } from '../../../canister/service/direct-reads';
import type { HttpAnswer } from '../../../canister/service/direct-reads/answers';
import { ON_DEMAND_BUDGET_PER_MINUTE } from '../../../canister/service/direct-reads/upgrades';
import { DIRECT_READ_WINDOW_SECONDS } from '../../../contract/http';
import { IDL } from '@dfinity/candid';
import { checkCertified } from '../service/certified';
import { harness, key, withGame } from '../service/harness';
import { submitBatch } from '../service/submit';

const nodeSha = (...parts: Uint8Array[]): Uint8Array => {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    return new Uint8Array(h.digest());
};
const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const asAgent = (t: HashTree): AgentTree => t as unknown as AgentTree;

describe('sha256', () => {
    test('matches Node for lengths around every block boundary, fed in any pieces, cloned mid-stream', () => {
        for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 4097]) {
            const data = new Uint8Array(randomBytes(n));
            expect(sha256(data)).toEqual(nodeSha(data));
            const h = new Sha256();
            let at = 0;
            while (at < n) {
                const step = 1 + ((at * 7) % 70);
                h.update(data.subarray(at, at + step));
                at += step;
            }
            const fork = h.clone();
            expect(h.digest()).toEqual(nodeSha(data));
            expect(fork.update(text('more')).digest()).toEqual(nodeSha(data, text('more')));
        }
    });
});

describe('hash tree', () => {
    const paths = [
        ['http_expr', 'games', 'g1', 'scoreboards', '<$>'],
        ['http_expr', 'games', 'g1', 'scoreboards', 'daily', '<$>'],
        ['http_expr', 'games', 'g2', 'scoreboards', '<$>'],
        ['http_expr', 'games', 'g10', 'scoreboards', 'weekly', 'archives', '<$>'],
        ['http_expr', '<*>', 'skip'],
    ];

    test('witnesses reconstruct to the root digest, reveal what they prove, and survive changes', async () => {
        const tree = newLevel();
        for (const p of paths) setAt(tree, p, newLeaf(new Uint8Array(0)));
        for (let round = 0; round < 3; round++) {
            const root = nodeDigest(tree);
            for (const p of paths) {
                const w = witness(tree, [p]);
                expect(treeDigest(w)).toEqual(root);
                expect(new Uint8Array(await reconstruct(asAgent(w)))).toEqual(root);
                expect(lookup_path(p, asAgent(w)).status).toBe(LookupPathStatus.Found);
            }
            // Changes invalidate exactly what they must: digests stay equal to a tree built fresh.
            setAt(tree, ['http_expr', 'games', `g${round + 3}`, 'x'], newLeaf(text(`v${round}`)));
            const fresh = newLevel();
            for (const p of paths) setAt(fresh, p, newLeaf(new Uint8Array(0)));
            for (let r = 0; r <= round; r++)
                setAt(fresh, ['http_expr', 'games', `g${r + 3}`, 'x'], newLeaf(text(`v${r}`)));
            expect(nodeDigest(tree)).toEqual(nodeDigest(fresh));
        }
        removeAt(tree, ['http_expr', 'games', 'g3', 'x']);
        removeAt(tree, ['http_expr', 'games', 'g4', 'x']);
        removeAt(tree, ['http_expr', 'games', 'g5', 'x']);
        const fresh = newLevel();
        for (const p of paths) setAt(fresh, p, newLeaf(new Uint8Array(0)));
        expect(nodeDigest(tree)).toEqual(nodeDigest(fresh));
    });

    test('many random inserts and removals keep the digest of the same content', () => {
        const tree = newLevel();
        const live = new Set<string>();
        for (let i = 0; i < 400; i++) {
            const k = `k${(i * 7919) % 97}`;
            if (live.has(k) && i % 3 === 0) {
                removeAt(tree, ['a', k]);
                live.delete(k);
            } else {
                setAt(tree, ['a', k], newLeaf(text(k)));
                live.add(k);
            }
        }
        const fresh = newLevel();
        for (const k of [...live].reverse()) setAt(fresh, ['a', k], newLeaf(text(k)));
        expect(nodeDigest(tree)).toEqual(nodeDigest(fresh));
    });

    test('CBOR: the witness and the expression path decode with @dfinity/cbor', () => {
        const tree = newLevel();
        for (const p of paths) setAt(tree, p, newLeaf(new Uint8Array(0)));
        const w = witness(tree, [paths[1]]);
        const decoded = cborDecode(encodeTree(w)) as unknown[];
        const norm = (t: unknown): unknown =>
            Array.isArray(t) ? t.map(norm) : t instanceof Uint8Array ? Buffer.from(t).toString('hex') : t;
        expect(norm(decoded)).toEqual(norm(w));
        expect((cborDecode(encodePath(['http_expr', 'a', '<$>'])) as unknown[]).map(String)).toEqual([
            'http_expr',
            'a',
            '<$>',
        ]);
    });
});

describe('HTTP certification', () => {
    // The specification's definitions, written out here with Node's hashing.
    const hashOfMap = (entries: Array<[string, string | number]>): Uint8Array => {
        const leb = (n: number): Uint8Array => {
            const out: number[] = [];
            do {
                out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
                n >>>= 7;
            } while (n > 0);
            return new Uint8Array(out);
        };
        const pairs = entries
            .map(([k, v]) => Buffer.concat([nodeSha(text(k)), nodeSha(typeof v === 'number' ? leb(v) : text(v))]))
            .sort(Buffer.compare);
        return nodeSha(...pairs);
    };

    test('request hash: method and the certified query parameters, no body', () => {
        expect(requestHash('GET', '')).toEqual(
            nodeSha(hashOfMap([[':ic-cert-method', 'GET']]), nodeSha(new Uint8Array())),
        );
        expect(requestHash('GET', 'limit=10')).toEqual(
            nodeSha(
                hashOfMap([
                    [':ic-cert-method', 'GET'],
                    [':ic-cert-query', 'limit=10'],
                ]),
                nodeSha(new Uint8Array()),
            ),
        );
    });

    test('response headers hash: every header but IC-Certificate, lower-cased, and the status', () => {
        expect(
            responseHeadersHash(200, [
                ['Content-Type', 'application/json'],
                ['IC-Certificate', 'ignored'],
                ['ic-certificateexpression', FULL_EXPRESSION],
            ]),
        ).toEqual(
            hashOfMap([
                ['content-type', 'application/json'],
                ['ic-certificateexpression', FULL_EXPRESSION],
                [':ic-cert-status', 200],
            ]),
        );
    });

    test('the certified part of a query and the path segments, as a verifier computes them', () => {
        expect(certifiedQuery('')).toBe('');
        expect(certifiedQuery('limit=10')).toBe('limit=10');
        expect(certifiedQuery('foo=1&LIMIT=5&offset=2&limit[]=3')).toBe('LIMIT=5&offset=2');
        expect(pathKeys('/games/a%2Db/scoreboards?x=1')).toEqual(['games', 'a-b', 'scoreboards']);
        expect(pathKeys('/a//b/')).toEqual(['a', 'b', '']);
        expect(pathKeys('/%zz')).toBeUndefined();
        expect(skipWitnessPaths(['a', 'b'])).toEqual([
            ['http_expr', '<*>', expect.any(String)],
            ['http_expr', 'a', 'b', '<$>'],
            ['http_expr', 'a', 'b', '<*>'],
            ['http_expr', 'a', '', '<*>'],
            ['http_expr', 'a', '<*>'],
            ['http_expr', '', '<*>'],
        ]);
        expect(SKIP_EXPRESSION).toBe('default_certification(ValidationArgs{no_certification:Empty{}})');
    });

    test('base64 and the Candid reply match the reference encoders', () => {
        for (const n of [0, 1, 2, 3, 4, 100]) {
            const b = new Uint8Array(randomBytes(n));
            expect(base64(b)).toBe(Buffer.from(b).toString('base64'));
        }
        const reply = {
            status: 404,
            headers: [
                ['content-type', 'application/json'],
                ['x-é', 'ü'],
            ] as Array<[string, string]>,
            body: text('{"ok":false}'),
            upgrade: true,
        };
        const Response = IDL.Record({
            status_code: IDL.Nat16,
            headers: IDL.Vec(IDL.Tuple(IDL.Text, IDL.Text)),
            body: IDL.Vec(IDL.Nat8),
            upgrade: IDL.Opt(IDL.Bool),
        });
        const [decoded] = IDL.decode([Response], encodeHttpReply(reply)) as unknown as [Record<string, unknown>];
        expect(decoded).toEqual({
            status_code: 404,
            headers: reply.headers,
            body: reply.body,
            upgrade: [true],
        });
    });
});

describe('the direct-read snapshot', () => {
    const BOARD = '/games/my-game/scoreboards/all-time';

    /** A served board answer checked as a verifier would: its tree proves it under the full expression. */
    const check = (root: Uint8Array, answer: HttpAnswer, url: string) =>
        checkCertified(root, answer, url, undefined, FULL_EXPRESSION);

    test('renders once, serves every certified limit, and re-hashes only what changed', () => {
        const h = harness();
        withGame(h);
        const direct = createDirectReads();
        const players = Array.from({ length: 30 }, (_, i) => `dev_1700000000_${i.toString(16).padStart(8, '0')}`);
        submitBatch(h, {
            submits: players.map((playerId, i) => ({
                apiKey: key(h, 'my-game'),
                gameId: 'my-game',
                playerId,
                score: 1000 - i,
                streak: 1,
            })),
        });
        // Only what is read is rendered: each path's first read asks for an update, which renders it.
        const cert = new Uint8Array([1, 2, 3]);
        const read = [
            BOARD,
            `${BOARD}?limit=10`,
            `${BOARD}?limit=25`,
            `${BOARD}?limit=100`,
            '/games/my-game/scoreboards',
        ];
        for (const url of read) {
            expect(direct.serve(h, 'GET', url, cert).upgrade).toBe(true);
            expect(direct.serveUpdate(h, 'GET', url).changed).toBe(true);
        }
        for (const url of read) {
            const answer = direct.serve(h, 'GET', url, cert);
            expect(answer.upgrade).toBeUndefined();
            check(direct.rootHash(), answer, url);
        }
        expect(direct.serve(h, 'GET', `${BOARD}?limit=50`, cert).upgrade).toBe(true); // not read: not rendered
        expect(
            JSON.parse(new TextDecoder().decode(direct.serve(h, 'GET', `${BOARD}?limit=10`, cert).body)).data.entries,
        ).toHaveLength(10);
        // A change below the top 10 keeps the top-10 answer and its leaf; a change at the top replaces it.
        const top10 = direct.serve(h, 'GET', `${BOARD}?limit=10`, cert).body;
        h.advance(3);
        submitBatch(h, {
            submits: [{ apiKey: key(h, 'my-game'), gameId: 'my-game', playerId: players[29], score: 980, streak: 1 }],
        });
        expect(direct.markDirty(h, 'my-game', { kind: 'fanout' })).toBe(h.env.now()); // due at once: never rendered by the timer
        expect(direct.renderDirty(h, () => false)).toEqual({ changed: true, nextDue: undefined });
        expect(direct.serve(h, 'GET', `${BOARD}?limit=10`, cert).body).toEqual(top10);
        check(direct.rootHash(), direct.serve(h, 'GET', `${BOARD}?limit=25`, cert), `${BOARD}?limit=25`);
        h.advance(3);
        submitBatch(h, {
            submits: [{ apiKey: key(h, 'my-game'), gameId: 'my-game', playerId: players[29], score: 5000, streak: 1 }],
        });
        // Rendered 3 s ago: the next render waits for the window.
        const due = direct.markDirty(h, 'my-game', { kind: 'fanout' })!;
        expect(due).toBe(h.env.now() + (DIRECT_READ_WINDOW_SECONDS - 3) * 1e6);
        expect(direct.renderDirty(h, () => false)).toEqual({ changed: false, nextDue: due });
        expect(direct.serve(h, 'GET', `${BOARD}?limit=10`, cert).body).toEqual(top10);
        h.advance(DIRECT_READ_WINDOW_SECONDS - 3);
        expect(direct.renderDirty(h, () => false).changed).toBe(true);
        const now = direct.serve(h, 'GET', `${BOARD}?limit=10`, cert);
        expect(JSON.parse(new TextDecoder().decode(now.body)).data.entries[0].score).toBe(5000);
        check(direct.rootHash(), now, `${BOARD}?limit=10`);
        // Not rendered ahead: an upgrade, then certified.
        expect(direct.serve(h, 'GET', `${BOARD}?limit=7`, cert).upgrade).toBe(true);
        expect(direct.serveUpdate(h, 'GET', `${BOARD}?limit=7`).changed).toBe(true);
        check(direct.rootHash(), direct.serve(h, 'GET', `${BOARD}?limit=7`, cert), `${BOARD}?limit=7`);
    });

    test('only what is read is rendered: one board at one limit, also after changes', () => {
        const h = harness();
        withGame(h);
        const direct = createDirectReads();
        const cert = new Uint8Array([1]);
        const submit = (playerId: string, score: number): void => {
            submitBatch(h, { submits: [{ apiKey: key(h, 'my-game'), gameId: 'my-game', playerId, score, streak: 1 }] });
        };
        submit('p-1', 10);
        const empty = direct.rootHash();
        // A write to a game nobody reads directly: nothing to render, no render due.
        expect(direct.markDirty(h, 'my-game', { kind: 'fanout' })).toBeUndefined();
        expect(direct.pending()).toBe(0);
        const url = `${BOARD}?limit=10`;
        direct.serveUpdate(h, 'GET', url);
        const one = direct.rootHash();
        expect(one).not.toEqual(empty);
        const others = [BOARD, `${BOARD}?limit=100`, '/games/my-game/scoreboards', '/games/my-game/scoreboards/daily'];
        for (const other of others) expect(direct.serve(h, 'GET', other, cert).upgrade).toBe(true);
        h.advance(DIRECT_READ_WINDOW_SECONDS);
        submit('p-2', 20);
        direct.markDirty(h, 'my-game', { kind: 'fanout' });
        expect(direct.renderDirty(h, () => false).changed).toBe(true);
        expect(direct.rootHash()).not.toEqual(one);
        const answer = direct.serve(h, 'GET', url, cert);
        check(direct.rootHash(), answer, url);
        expect(JSON.parse(new TextDecoder().decode(answer.body)).data.totalEntries).toBe(2);
        for (const other of others) expect(direct.serve(h, 'GET', other, cert).upgrade).toBe(true);
        // A change to another board (targeted) renders nothing: the path read does not show it.
        h.advance(DIRECT_READ_WINDOW_SECONDS);
        const before = direct.rootHash();
        direct.markDirty(h, 'my-game', { kind: 'board', boardId: 'fanout' });
        direct.renderDirty(h, () => false);
        expect(direct.rootHash()).toEqual(before);
        // Read no more for WATCH_MICROS: the next change drops it, and the next read upgrades again.
        h.advance(10 * 60 + 1);
        submit('p-3', 30);
        direct.markDirty(h, 'my-game', { kind: 'fanout' });
        direct.renderDirty(h, () => false);
        expect(direct.rootHash()).toEqual(empty);
        expect(direct.serve(h, 'GET', url, cert).upgrade).toBe(true);
    });

    test('the raw domain is answered live by the query: no upgrade, no certificate, nothing rendered', () => {
        const h = harness();
        withGame(h);
        const direct = createDirectReads();
        submitBatch(h, {
            submits: [{ apiKey: key(h, 'my-game'), gameId: 'my-game', playerId: 'p-1', score: 7, streak: 1 }],
        });
        const empty = direct.rootHash();
        for (const url of [BOARD, `${BOARD}?limit=1000&offset=3`, '/games/my-game/scoreboards', '/nowhere']) {
            const answer = direct.serve(h, 'GET', url, undefined, true);
            expect(answer.upgrade).toBeUndefined();
            expect(answer.headers.some(([n]) => n === 'ic-certificate')).toBe(false);
        }
        const board = JSON.parse(new TextDecoder().decode(direct.serve(h, 'GET', BOARD, undefined, true).body));
        expect(board.data.entries).toEqual([expect.objectContaining({ rank: 1, score: 7 })]);
        expect(direct.serveUpdate(h, 'GET', BOARD, true).changed).toBe(false);
        expect(direct.rootHash()).toEqual(empty);
        expect(direct.markDirty(h, 'my-game', { kind: 'all' })).toBeUndefined();
        expect(['x.raw.icp0.io', 'abc-cai.RAW.localhost:4943', 'abc.raw.ic0.app'].map(isRawHost)).toEqual([
            true,
            true,
            true,
        ]);
        expect(
            ['abc.icp0.io', 'raw.example.com', 'abc.localhost', '127.0.0.1:4943', 'a.b.raw.x'].map(isRawHost),
        ).toEqual([false, false, false, false, false]);
    });

    test('a deleted game leaves the tree', () => {
        const h = harness();
        withGame(h);
        const direct = createDirectReads();
        const empty = direct.rootHash();
        direct.serveUpdate(h, 'GET', BOARD);
        expect(direct.rootHash()).not.toEqual(empty);
        h.games.delete('my-game');
        direct.markDirty(h, 'my-game', { kind: 'all' });
        direct.renderDirty(h, () => false);
        expect(direct.rootHash()).toEqual(empty);
    });

    test('renders started by updates stop at the minute budget; past it an answer is live and not kept', () => {
        const h = harness();
        withGame(h);
        let counter = 0;
        // Each measured render "costs" a fifth of the minute's budget.
        const direct = createDirectReads(undefined, () => (counter += ON_DEMAND_BUDGET_PER_MINUTE / 5));
        submitBatch(h, {
            submits: [{ apiKey: key(h, 'my-game'), gameId: 'my-game', playerId: 'p-1', score: 10, streak: 1 }],
        });
        const kept = (url: string): boolean => {
            direct.serveUpdate(h, 'GET', url);
            return direct.serve(h, 'GET', url, new Uint8Array([1])).upgrade === undefined;
        };
        expect(kept(BOARD)).toBe(true); // the game's first render
        const pages = Array.from({ length: 6 }, (_, i) => `${BOARD}?limit=${i + 2}`);
        expect(pages.map(kept)).toEqual([true, true, true, true, false, false]);
        const answer = direct.serveUpdate(h, 'GET', pages[5]).answer;
        expect(JSON.parse(new TextDecoder().decode(answer.body)).data.entries).toHaveLength(1); // still answered
        h.advance(60);
        expect(kept(pages[5])).toBe(true);
    });
});
