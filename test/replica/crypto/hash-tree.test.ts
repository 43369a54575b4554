import { randomBytes } from 'node:crypto';
import { flatten_forks, lookup_path, LookupPathStatus, NodeType, reconstruct } from '@dfinity/agent';
import type { HashTree } from '@dfinity/agent';
import {
    childLabels,
    compareLabels,
    createTree,
    deletePath,
    fullHashTree,
    getLeaf,
    hashTreeSha256Calls,
    rootDigest,
    setLeaf,
    toLabel,
    witness,
    type LabeledTree,
    type Path,
} from '../../../replica/crypto/hash-tree';
import { createStateTree, removeRequestStatus, setRequestStatus } from '../../../replica/crypto/state-tree';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const rand = (n: number): Uint8Array => new Uint8Array(randomBytes(n));

/** lookup_path exactly as the interface spec defines it (independent of the agent's implementation). */
type SpecResult = { status: 'Found'; value: Uint8Array } | { status: 'Absent' | 'Unknown' | 'Error' };
function specLookup(path: Uint8Array[], tree: HashTree): SpecResult {
    if (path.length === 0) {
        switch (tree[0]) {
            case NodeType.Empty:
                return { status: 'Absent' };
            case NodeType.Leaf:
                return { status: 'Found', value: tree[1] };
            case NodeType.Pruned:
                return { status: 'Unknown' };
            default:
                return { status: 'Error' };
        }
    }
    const [label, ...rest] = path;
    const list = flatten_forks(tree);
    for (const t of list) {
        if (t[0] === NodeType.Labeled && compareLabels(t[1], label) === 0) return specLookup(rest, t[2]);
    }
    const isLabeled = (
        t: HashTree | undefined,
    ): t is [NodeType.Labeled, Uint8Array & { __nodeLabel__: void }, HashTree] =>
        t !== undefined && t[0] === NodeType.Labeled;
    for (let i = 0; i + 1 < list.length; i++) {
        const a = list[i];
        const b = list[i + 1];
        if (isLabeled(a) && isLabeled(b) && compareLabels(a[1], label) < 0 && compareLabels(label, b[1]) < 0) {
            return { status: 'Absent' };
        }
    }
    const first = list[0];
    const last = list[list.length - 1];
    if (list.length === 0) return { status: 'Absent' };
    if (isLabeled(first) && compareLabels(label, first[1]) < 0) return { status: 'Absent' };
    if (isLabeled(last) && compareLabels(last[1], label) < 0) return { status: 'Absent' };
    if (list.length === 1 && first[0] === NodeType.Leaf) return { status: 'Absent' };
    return { status: 'Unknown' };
}

function countNodes(tree: HashTree): number {
    switch (tree[0]) {
        case NodeType.Fork:
            return 1 + countNodes(tree[1]) + countNodes(tree[2]);
        case NodeType.Labeled:
            return 1 + countNodes(tree[2]);
        default:
            return 1;
    }
}

async function expectSameDigest(tree: LabeledTree, hashTree: HashTree): Promise<void> {
    expect(hex(await reconstruct(hashTree))).toBe(hex(rootDigest(tree)));
}

describe('labeled hash tree', () => {
    test('digest equals the agent reconstruct of the full tree, through inserts and deletes', async () => {
        const tree = createTree();
        await expectSameDigest(tree, fullHashTree(tree.root));
        const live = new Map<string, Path>();
        for (let i = 0; i < 300; i++) {
            const path: Path = [`level-${i % 3}`, rand(1 + (i % 5)), i % 2 ? 'x' : 'y'];
            setLeaf(tree, path, rand(i % 7));
            live.set(hex(Buffer.concat(path.map((l) => Buffer.from(toLabel(l))))), path);
            if (i % 37 === 0) await expectSameDigest(tree, fullHashTree(tree.root));
        }
        let n = 0;
        for (const [key, path] of live) {
            if (n++ % 2) continue;
            expect(deletePath(tree, path)).toBe(true);
            live.delete(key);
            if (n % 25 === 0) await expectSameDigest(tree, fullHashTree(tree.root));
        }
        await expectSameDigest(tree, fullHashTree(tree.root));
        expect(deletePath(tree, ['nope', 'x'])).toBe(false);
    });

    test('labels are kept in byte order and the shape depends only on content', () => {
        const labels = Array.from({ length: 200 }, () => rand(1 + Math.floor(Math.random() * 4)));
        const a = createTree();
        const b = createTree();
        labels.forEach((l) => setLeaf(a, ['t', l], l));
        [...labels].reverse().forEach((l) => setLeaf(b, ['t', l], l));
        const listed = childLabels(a, ['t']).map(hex);
        const sorted = [...new Set(labels.map(hex))].sort((x, y) =>
            compareLabels(Buffer.from(x, 'hex'), Buffer.from(y, 'hex')),
        );
        expect(listed).toEqual(sorted);
        expect(hex(rootDigest(a))).toBe(hex(rootDigest(b)));
        expect(getLeaf(a, ['t', labels[0]])).toEqual(labels[0]);
    });

    test('witnesses reveal requested paths, prove absence, and reconstruct to the root digest', async () => {
        const tree = createStateTree(123n);
        const ids = Array.from({ length: 2000 }, () => rand(32));
        ids.forEach((id, i) =>
            setRequestStatus(
                tree,
                id,
                i % 2
                    ? { status: 'replied', reply: rand(8) }
                    : { status: 'rejected', reject_code: 4, reject_message: 'no' },
            ),
        );
        const canisters = [1, 2, 3, 5, 8, 13, 200, 201].map((n) => Uint8Array.from([0, 0, 0, 0, 0, 0, 0, n, 1, 1]));
        canisters.forEach((c) => setLeaf(tree, ['canister', c, 'certified_data'], rand(4)));
        const root = rootDigest(tree);

        // Found values, with a small witness.
        const target = ids[777];
        const w = witness(tree, [
            ['request_status', target, 'status'],
            ['request_status', target, 'reply'],
        ]);
        expect(hex(await reconstruct(w))).toBe(hex(root));
        const status = lookup_path(['request_status', target, 'status'], w);
        expect(status.status).toBe(LookupPathStatus.Found);
        expect(new TextDecoder().decode((status as { value: Uint8Array }).value)).toBe('replied');
        expect(lookup_path(['request_status', target, 'reply'], w).status).toBe(LookupPathStatus.Found);
        // Not requested, so pruned: neither found nor provably absent.
        expect(lookup_path(['request_status', ids[778], 'status'], w).status).toBe(LookupPathStatus.Unknown);
        expect(countNodes(w)).toBeLessThan(150);

        // A subtree path reveals the whole subtree.
        const sub = witness(tree, [['request_status', ids[4]]]);
        for (const field of ['status', 'reject_code', 'reject_message']) {
            expect(lookup_path(['request_status', ids[4], field], sub).status).toBe(LookupPathStatus.Found);
        }
        expect(lookup_path(['request_status', ids[4], 'reply'], sub).status).toBe(LookupPathStatus.Absent);
        expect(lookup_path(['request_status', ids[4], 'error_code'], sub).status).toBe(LookupPathStatus.Absent);

        // Absent request ids, absent fields, absent canisters: Absent for the agent and for the spec.
        const absentPaths: Uint8Array[][] = [];
        const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
        for (let i = 0; i < 60; i++) absentPaths.push([enc('request_status'), rand(32)]);
        absentPaths.push([enc('request_status'), new Uint8Array(32)]); // below every id
        absentPaths.push([enc('request_status'), new Uint8Array(32).fill(0xff)]); // above every id
        absentPaths.push([enc('request_status'), ids[10], enc('reply')]);
        absentPaths.push([enc('request_status'), ids[11], enc('reject_code')]);
        for (const n of [0, 4, 6, 7, 9, 100, 199, 202, 255]) {
            absentPaths.push([enc('canister'), Uint8Array.from([0, 0, 0, 0, 0, 0, 0, n, 1, 1]), enc('certified_data')]);
        }
        absentPaths.push([enc('canister'), Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0]), enc('certified_data')]);
        absentPaths.push([enc('api_boundary_nodes')]);
        absentPaths.push([enc('a')]);
        absentPaths.push([enc('zzz')]);
        absentPaths.push([enc('time'), enc('below-a-leaf')]);
        absentPaths.push([enc('subnet'), rand(29), enc('public_key')]); // empty subtree
        for (const path of absentPaths) {
            const aw = witness(tree, [path]);
            expect(hex(await reconstruct(aw))).toBe(hex(root));
            expect(specLookup(path, aw).status).toBe('Absent');
            expect(lookup_path(path, aw).status).toBe(LookupPathStatus.Absent);
            expect(countNodes(aw)).toBeLessThan(400);
        }

        // Several paths at once, mixing found and absent.
        const mixed: Uint8Array[][] = [
            [enc('time')],
            [enc('request_status'), ids[5], enc('status')],
            [enc('request_status'), rand(32)],
        ];
        const mw = witness(tree, mixed);
        expect(hex(await reconstruct(mw))).toBe(hex(root));
        expect(lookup_path(mixed[0], mw).status).toBe(LookupPathStatus.Found);
        expect(lookup_path(mixed[1], mw).status).toBe(LookupPathStatus.Found);
        expect(lookup_path(mixed[2], mw).status).toBe(LookupPathStatus.Absent);
        expect(specLookup(mixed[2], mw).status).toBe('Absent');

        // Nothing requested: the root alone.
        expect(witness(tree, [])).toEqual([NodeType.Pruned, root]);
    });

    test('absence proofs hold for the spec and the agent with short, clustered labels', async () => {
        for (let round = 0; round < 40; round++) {
            const tree = createTree();
            const size = 1 + Math.floor(Math.random() * 300);
            const alphabet = [0, 1, 2, 0x7f, 0x80, 0xfe, 0xff];
            const pick = (): number => alphabet[Math.floor(Math.random() * alphabet.length)];
            const makeLabel = (): Uint8Array => Uint8Array.from({ length: 1 + Math.floor(Math.random() * 4) }, pick);
            const present = new Set<string>();
            for (let i = 0; i < size; i++) {
                const label = makeLabel();
                present.add(hex(label));
                setLeaf(tree, ['level', label], label);
            }
            const root = rootDigest(tree);
            for (let i = 0; i < 20; i++) {
                const q = makeLabel();
                const path = [new TextEncoder().encode('level'), q];
                const w = witness(tree, [path]);
                expect(hex(await reconstruct(w))).toBe(hex(root));
                const expected = present.has(hex(q)) ? 'Found' : 'Absent';
                expect(specLookup(path, w).status).toBe(expected);
                if (expected === 'Absent') expect(lookup_path(path, w).status).toBe(LookupPathStatus.Absent);
            }
        }
    });

    test('re-digest after one change costs O(log n) hashes with 100,000 request statuses', () => {
        const tree = createStateTree(1n);
        const n = 100_000;
        const ids: Uint8Array[] = [];
        for (let i = 0; i < n; i++) {
            const id = rand(32);
            ids.push(id);
            setRequestStatus(tree, id, { status: 'replied', reply: rand(16) });
        }
        let before = hashTreeSha256Calls();
        rootDigest(tree);
        const fullCost = hashTreeSha256Calls() - before;

        const measure = (change: () => void): number => {
            const start = hashTreeSha256Calls();
            change();
            rootDigest(tree);
            return hashTreeSha256Calls() - start;
        };
        const costs = {
            insert: [] as number[],
            update: [] as number[],
            remove: [] as number[],
        };
        for (let i = 0; i < 50; i++) {
            costs.insert.push(measure(() => setRequestStatus(tree, rand(32), { status: 'processing' })));
            costs.update.push(measure(() => setRequestStatus(tree, ids[i * 7], { status: 'done' })));
            costs.remove.push(measure(() => removeRequestStatus(tree, ids[i * 7 + 1])));
        }
        const stats = (xs: number[]): string =>
            `avg ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1)}, max ${Math.max(...xs)}`;
        console.log(
            `hash tree with ${n} request statuses: full digest ${fullCost} SHA-256 calls; per change + re-digest: ` +
                `insert ${stats(costs.insert)}, update ${stats(costs.update)}, remove ${stats(costs.remove)}`,
        );
        for (const xs of Object.values(costs)) expect(Math.max(...xs)).toBeLessThan(300);
        expect(fullCost).toBeGreaterThan(n);

        // Certifying unchanged state re-hashes nothing.
        before = hashTreeSha256Calls();
        rootDigest(tree);
        expect(hashTreeSha256Calls() - before).toBe(0);
    });
});
