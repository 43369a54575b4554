// The IC hash tree the canister certifies (interface specification, "Certification": labeled
// subtrees, forks, leaves, pruned nodes, with domain-separated SHA-256 digests), kept as nested
// labeled levels with cached digests, and the pruned witnesses that prove a path present or
// absent, CBOR-encoded for the IC-Certificate header. The replica has a tree of the same design
// (replica/crypto/hash-tree.ts) that it may not import: this one hashes with the canister's own
// QuickJS-tuned SHA-256 and keeps rendered bodies' leaves; the replica's hashes with node:crypto.
//
// Each level's children live in a treap ordered by label bytes, whose shape is the fork shape of
// the hash tree: entry E hashes as fork(fork(E.left, labeled(E)), E.right), absent sides dropped.
// So changing one child re-hashes only the entries on its way up (O(log n) expected), never a
// whole level, and digests are computed lazily: several changes in one message share the work.
// Labels are held as Latin-1 strings (one char per byte), so comparing them is native string
// order, which is byte order. Priorities come from the label, so the shape depends only on content.
import { Sha256 } from './sha256';

export type Digest = Uint8Array;

export interface Leaf {
    readonly kind: 'leaf';
    readonly value: Uint8Array;
}

export interface Level {
    readonly kind: 'level';
    root: Entry | null;
}

export type TreeNode = Leaf | Level;

interface Entry {
    readonly key: string;
    /** The label's bytes, made once (a per-byte loop costs hundreds of instructions a byte here). */
    readonly label: Uint8Array;
    readonly prio: number;
    child: TreeNode;
    left: Entry | null;
    right: Entry | null;
    /** Digest of labeled(key, child); undefined when the child changed. */
    labeled: Digest | undefined;
    /** Digest of this entry's whole treap subtree; undefined when something in it changed. */
    digest: Digest | undefined;
}

/** A witness (or a full tree) as the IC's HashTree: [0] empty, [1,l,r] fork, [2,label,t] labeled, [3,v] leaf, [4,h] pruned. */
export type HashTree =
    | readonly [0]
    | readonly [1, HashTree, HashTree]
    | readonly [2, Uint8Array, HashTree]
    | readonly [3, Uint8Array]
    | readonly [4, Digest];

function domain(name: string): Sha256 {
    const bytes = new Uint8Array(name.length + 1);
    bytes[0] = name.length;
    for (let i = 0; i < name.length; i++) bytes[i + 1] = name.charCodeAt(i);
    return new Sha256().update(bytes);
}

// Hashers primed with each domain separator, cloned per hash.
const EMPTY = domain('ic-hashtree-empty').digest();
const FORK = domain('ic-hashtree-fork');
const LABELED = domain('ic-hashtree-labeled');
const LEAF = domain('ic-hashtree-leaf');
const EMPTY_LEAF = LEAF.clone().digest();

/** Latin-1 string of bytes (a label's key). */
export function keyOf(bytes: Uint8Array): string {
    let s = '';
    for (let i = 0; i < bytes.length; i += 4096)
        s += String.fromCharCode.apply(null, bytes.subarray(i, i + 4096) as unknown as number[]);
    return s;
}

function keyBytes(key: string): Uint8Array {
    const out = new Uint8Array(key.length);
    for (let i = 0; i < key.length; i++) out[i] = key.charCodeAt(i);
    return out;
}

function prioOf(key: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    return h >>> 0;
}

export const newLevel = (): Level => ({ kind: 'level', root: null });
export const newLeaf = (value: Uint8Array): Leaf => ({ kind: 'leaf', value });

// ---- treap ---------------------------------------------------------------------------------------

function find(level: Level, key: string): Entry | undefined {
    let e = level.root;
    while (e !== null) {
        if (key === e.key) return e;
        e = key < e.key ? e.left : e.right;
    }
    return undefined;
}

/** Finds `key`, clearing the digests on the way down (the caller changes what is below). */
function touch(level: Level, key: string): Entry | undefined {
    let e = level.root;
    while (e !== null) {
        e.digest = undefined;
        if (key === e.key) return e;
        e = key < e.key ? e.left : e.right;
    }
    return undefined;
}

type Side = 'left' | 'right';
const OTHER: Record<Side, Side> = { left: 'right', right: 'left' };

/** Inserts below e; a child that then outranks e takes its place (a rotation). */
function insert(e: Entry | null, fresh: Entry): Entry {
    if (e === null) return fresh;
    e.digest = undefined;
    const side: Side = fresh.key < e.key ? 'left' : 'right';
    const child = insert(e[side], fresh);
    if (child.prio <= e.prio) {
        e[side] = child;
        return e;
    }
    e[side] = child[OTHER[side]];
    child[OTHER[side]] = e;
    return child;
}

function merge(a: Entry | null, b: Entry | null): Entry | null {
    if (a === null) return b;
    if (b === null) return a;
    if (a.prio > b.prio) {
        a.digest = undefined;
        a.right = merge(a.right, b);
        return a;
    }
    b.digest = undefined;
    b.left = merge(a, b.left);
    return b;
}

function removeKey(e: Entry | null, key: string): Entry | null {
    if (e === null) return null;
    if (key === e.key) return merge(e.left, e.right);
    e.digest = undefined;
    if (key < e.key) e.left = removeKey(e.left, key);
    else e.right = removeKey(e.right, key);
    return e;
}

// ---- paths --------------------------------------------------------------------------------------------

/** The child at `key` of a level (a subtree or leaf), or undefined. */
export function childOf(level: Level, key: string): TreeNode | undefined {
    return find(level, key)?.child;
}

/** The level at `path` (keys), created (and every digest above it cleared) when `create`. */
export function levelAt(root: Level, path: readonly string[], create: boolean): Level | undefined {
    let level = root;
    for (const key of path) {
        let e = create ? touch(level, key) : find(level, key);
        if (e === undefined) {
            if (!create) return undefined;
            e = {
                key,
                label: keyBytes(key),
                prio: prioOf(key),
                child: newLevel(),
                left: null,
                right: null,
                labeled: undefined,
                digest: undefined,
            };
            level.root = insert(level.root, e);
        }
        if (e.child.kind !== 'level') {
            if (!create) return undefined;
            e.child = newLevel();
        }
        if (create) e.labeled = undefined;
        level = e.child;
    }
    return level;
}

/** Puts `node` at `path` (keys), replacing what was there. */
export function setAt(root: Level, path: readonly string[], node: TreeNode): void {
    const level = levelAt(root, path.slice(0, -1), true)!;
    const key = path[path.length - 1];
    const e = touch(level, key);
    if (e !== undefined) {
        e.child = node;
        e.labeled = undefined;
        return;
    }
    level.root = insert(level.root, {
        key,
        label: keyBytes(key),
        prio: prioOf(key),
        child: node,
        left: null,
        right: null,
        labeled: undefined,
        digest: undefined,
    });
}

/** Removes the node at `path` and every level left empty above it. */
export function removeAt(root: Level, path: readonly string[]): void {
    if (path.length === 0) return;
    const parents: Level[] = [root];
    for (let i = 0; i < path.length - 1; i++) {
        const child = childOf(parents[i], path[i]);
        if (child === undefined || child.kind !== 'level') return;
        parents.push(child);
    }
    for (let i = path.length - 1; i >= 0; i--) {
        const level = parents[i];
        if (find(level, path[i]) === undefined) return;
        // Clear the digests above first (the walk from the root passes through every ancestor).
        levelAt(root, path.slice(0, i), true);
        level.root = removeKey(level.root, path[i]);
        if (level.root !== null || i === 0) return;
    }
}

// ---- digests ------------------------------------------------------------------------------------------

function fork(a: Digest, b: Digest): Digest {
    return FORK.clone().update(a).update(b).digest();
}

export function nodeDigest(node: TreeNode): Digest {
    if (node.kind === 'leaf') return node.value.length === 0 ? EMPTY_LEAF : LEAF.clone().update(node.value).digest();
    return node.root === null ? EMPTY : entryDigest(node.root);
}

function labeledDigest(e: Entry): Digest {
    if (e.labeled === undefined) e.labeled = LABELED.clone().update(e.label).update(nodeDigest(e.child)).digest();
    return e.labeled;
}

function entryDigest(e: Entry): Digest {
    if (e.digest !== undefined) return e.digest;
    let d = labeledDigest(e);
    if (e.left !== null) d = fork(entryDigest(e.left), d);
    if (e.right !== null) d = fork(d, entryDigest(e.right));
    e.digest = d;
    return d;
}

// ---- witnesses ----------------------------------------------------------------------------------------

/** Paths to reveal, folded into a trie of keys; `end` marks that a path ends here (reveal all below). */
interface Trie {
    end: boolean;
    next: Map<string, Trie>;
}

function trieOf(paths: ReadonlyArray<readonly string[]>): Trie {
    const root: Trie = { end: false, next: new Map() };
    for (const path of paths) {
        let t = root;
        for (const key of path) {
            let n = t.next.get(key);
            if (n === undefined) t.next.set(key, (n = { end: false, next: new Map() }));
            t = n;
        }
        t.end = true;
    }
    return root;
}

/** The whole tree under `node`, nothing pruned. */
export function fullTree(node: TreeNode): HashTree {
    if (node.kind === 'leaf') return [3, node.value];
    const go = (e: Entry): HashTree => {
        let t: HashTree = [2, e.label, fullTree(e.child)];
        if (e.left !== null) t = [1, go(e.left), t];
        if (e.right !== null) t = [1, t, go(e.right)];
        return t;
    };
    return node.root === null ? [0] : go(node.root);
}

/** One label to show at a level: with what is below (`sub`) or with its content pruned (a neighbour). */
interface Shown {
    key: string;
    sub: Trie | undefined;
}

function witnessNode(node: TreeNode, trie: Trie): HashTree {
    if (trie.end || node.kind === 'leaf') return fullTree(node);
    if (node.root === null) return [0];
    const shown = new Map<string, Shown>();
    for (const [key, sub] of trie.next) {
        if (find(node, key) !== undefined) {
            shown.set(key, { key, sub });
            continue;
        }
        // Absent: reveal its neighbours, so that nothing can hide between them.
        let below: Entry | undefined;
        let above: Entry | undefined;
        let e: Entry | null = node.root;
        while (e !== null) {
            if (e.key < key) {
                below = e;
                e = e.right;
            } else {
                above = e;
                e = e.left;
            }
        }
        for (const n of [below, above])
            if (n !== undefined && !shown.has(n.key)) shown.set(n.key, { key: n.key, sub: undefined });
    }
    const sorted = [...shown.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return witnessEntry(node.root, sorted, 0, sorted.length);
}

/** `shown[from..to)` are sorted and lie within e's treap subtree. */
function witnessEntry(e: Entry, shown: Shown[], from: number, to: number): HashTree {
    if (from === to) return [4, entryDigest(e)];
    let split = from;
    while (split < to && shown[split].key < e.key) split++;
    const hit = split < to && shown[split].key === e.key ? shown[split] : undefined;
    let t: HashTree =
        hit === undefined
            ? [4, labeledDigest(e)]
            : [2, e.label, hit.sub === undefined ? [4, nodeDigest(e.child)] : witnessNode(e.child, hit.sub)];
    if (e.left !== null) t = [1, witnessEntry(e.left, shown, from, split), t];
    if (e.right !== null) t = [1, t, witnessEntry(e.right, shown, hit === undefined ? split : split + 1, to)];
    return t;
}

/**
 * A witness of `root` revealing every path of `paths` (keys) that exists, down to its end, and
 * proving absent the first missing label of each that does not; the rest pruned. Its digest
 * (`treeDigest`) is the root's.
 */
export function witness(root: Level, paths: ReadonlyArray<readonly string[]>): HashTree {
    nodeDigest(root);
    return witnessNode(root, trieOf(paths));
}

/** The digest a HashTree reconstructs to (what a verifier compares with the certified data). */
export function treeDigest(t: HashTree): Digest {
    switch (t[0]) {
        case 0:
            return EMPTY;
        case 1:
            return fork(treeDigest(t[1]), treeDigest(t[2]));
        case 2:
            return LABELED.clone().update(t[1]).update(treeDigest(t[2])).digest();
        case 3:
            return LEAF.clone().update(t[1]).digest();
        case 4:
            return t[1];
    }
}

// ---- CBOR ---------------------------------------------------------------------------------------------

/** CBOR head: major type and length, into `out` at `at`; returns the new offset (or the size with no `out`). */
function head(major: number, n: number, out: Uint8Array | undefined, at: number): number {
    const m = major << 5;
    if (n < 24) {
        if (out) out[at] = m | n;
        return at + 1;
    }
    if (n < 0x100) {
        if (out) {
            out[at] = m | 24;
            out[at + 1] = n;
        }
        return at + 2;
    }
    if (n < 0x10000) {
        if (out) {
            out[at] = m | 25;
            out[at + 1] = n >>> 8;
            out[at + 2] = n & 0xff;
        }
        return at + 3;
    }
    if (out) {
        out[at] = m | 26;
        out[at + 1] = n >>> 24;
        out[at + 2] = (n >>> 16) & 0xff;
        out[at + 3] = (n >>> 8) & 0xff;
        out[at + 4] = n & 0xff;
    }
    return at + 5;
}

function bytesAt(b: Uint8Array, out: Uint8Array | undefined, at: number): number {
    const start = head(2, b.length, out, at);
    if (out) out.set(b, start);
    return start + b.length;
}

function treeAt(t: HashTree, out: Uint8Array | undefined, at: number): number {
    at = head(4, t.length, out, at);
    if (out) out[at] = t[0];
    at++;
    switch (t[0]) {
        case 0:
            return at;
        case 1:
            return treeAt(t[2], out, treeAt(t[1], out, at));
        case 2:
            return treeAt(t[2], out, bytesAt(t[1], out, at));
        default:
            return bytesAt(t[1], out, at);
    }
}

const SELF_DESCRIBE = [0xd9, 0xd9, 0xf7];

/** The tree as self-describing CBOR (the `tree` of an IC-Certificate header). */
export function encodeTree(t: HashTree): Uint8Array {
    const out = new Uint8Array(treeAt(t, undefined, 3));
    out.set(SELF_DESCRIBE);
    treeAt(t, out, 3);
    return out;
}

/** An array of byte strings as self-describing CBOR (the `expr_path` of an IC-Certificate header). */
export function encodePath(path: readonly string[]): Uint8Array {
    let size = head(4, path.length, undefined, 3);
    for (const key of path) size = head(3, key.length, undefined, size) + key.length;
    const out = new Uint8Array(size);
    out.set(SELF_DESCRIBE);
    let at = head(4, path.length, out, 3);
    for (const key of path) {
        at = head(3, key.length, out, at);
        out.set(keyBytes(key), at);
        at += key.length;
    }
    return out;
}
