// A mutable labeled tree (the replica's state tree) whose IC hash-tree digests are cached per
// subtree and refreshed incrementally, and which yields pruned witnesses for chosen paths. The
// canister has its own of the same design (canister/domain/certification/hash-tree.ts): the
// replica imports nothing of ours, and the canister's runs in QuickJS with its own SHA-256.
//
// Each node's children live in a treap ordered by label bytes; the treap doubles as the fork
// shape of the hash tree (entry E becomes fork(fork(E.left, labeled(E)), E.right), dropping
// absent sides), so in-order traversal keeps labels sorted as the IC requires, and changing one
// child only re-hashes the entries on its root-to-entry path: O(log n) expected.
// Priorities are derived from the labels, so the shape (and digest) depends only on content.
import { createHash } from 'node:crypto';
import { domain_sep, NodeType } from '@dfinity/agent';
import type { HashTree, NodeHash, NodeLabel, NodeValue } from '@dfinity/agent';
import { toHex } from '../bytes';

export type Label = Uint8Array | string;
export type Path = readonly Label[];

export interface LeafNode {
    readonly kind: 'leaf';
    readonly value: Uint8Array;
}

export interface SubtreeNode {
    readonly kind: 'subtree';
    /** Treap root; internal, mutate only through this module. */
    root: Entry | null;
    size: number;
}

export type TreeNode = LeafNode | SubtreeNode;

export interface LabeledTree {
    readonly root: SubtreeNode;
}

/** One labeled child inside a subtree's treap. Internal representation, exported for typing only. */
export interface Entry {
    readonly label: Uint8Array;
    readonly priority: number;
    child: TreeNode;
    left: Entry | null;
    right: Entry | null;
    /** Digest of the fork structure rooted here (a Digest string); undefined when something below changed. */
    digest: string | undefined;
}

/**
 * SHA-256 digests are held as 32-character latin1 strings: a string costs about a third of the
 * memory of a 32-byte Uint8Array in V8, and the tree keeps one digest per entry (several per
 * update call, hundreds of thousands of calls).
 */
type Digest = string;

const DOMAIN_EMPTY = domain_sep('ic-hashtree-empty');
const DOMAIN_FORK = domain_sep('ic-hashtree-fork');
const DOMAIN_LABELED = domain_sep('ic-hashtree-labeled');
const DOMAIN_LEAF = domain_sep('ic-hashtree-leaf');

let sha256Calls = 0;

function hash(...parts: Array<Uint8Array | Digest>): Digest {
    sha256Calls++;
    const h = createHash('sha256');
    for (const part of parts) {
        if (typeof part === 'string') h.update(part, 'latin1');
        else h.update(part);
    }
    return h.digest('binary'); // 'binary' is Node's name for latin1 in this signature
}

function digestBytes(digest: Digest): Uint8Array {
    return new Uint8Array(Buffer.from(digest, 'latin1'));
}

const EMPTY_DIGEST = hash(DOMAIN_EMPTY);

/** Number of SHA-256 invocations made by this module so far (for cost accounting in tests). */
export function hashTreeSha256Calls(): number {
    return sha256Calls;
}

const encoder = new TextEncoder();

export function toLabel(label: Label): Uint8Array {
    return typeof label === 'string' ? encoder.encode(label) : label;
}

export function compareLabels(a: Uint8Array, b: Uint8Array): number {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
        if (a[i] !== b[i]) return a[i] - b[i];
    }
    return a.length - b.length;
}

/** FNV-1a followed by a murmur3 finaliser: cheap, deterministic and well spread. */
function priorityOf(label: Uint8Array): number {
    let h = 0x811c9dc5;
    for (const byte of label) h = Math.imul(h ^ byte, 0x01000193);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
}

/** Whether `a` belongs above `b` in the treap; ties broken by label so the shape is canonical. */
function above(a: Entry, b: Entry): boolean {
    return a.priority > b.priority || (a.priority === b.priority && compareLabels(a.label, b.label) < 0);
}

export function createTree(): LabeledTree {
    return { root: newSubtree() };
}

export function newLeaf(value: Uint8Array): LeafNode {
    return { kind: 'leaf', value };
}

export function newSubtree(): SubtreeNode {
    return { kind: 'subtree', root: null, size: 0 };
}

/** Builds a detached subtree from (label, node) pairs, e.g. to attach with setNode in one step. */
export function subtreeOf(children: ReadonlyArray<readonly [Label, TreeNode]>): SubtreeNode {
    const subtree = newSubtree();
    for (const [label, node] of children) upsert(subtree, toLabel(label), node);
    return subtree;
}

// ---------------------------------------------------------------------------------------------
// Treap primitives. Every entry on a path being modified has its digest cleared, so the next
// digest computation revisits exactly the changed paths.

type Side = 'left' | 'right';
const OTHER: Record<Side, Side> = { left: 'right', right: 'left' };

/** A rotation: e's child on `side` takes e's place, e becoming its child on the other side. */
function rotateUp(e: Entry, side: Side): Entry {
    const child = e[side] as Entry;
    e[side] = child[OTHER[side]];
    child[OTHER[side]] = e;
    e.digest = undefined;
    child.digest = undefined;
    return child;
}

function insertEntry(e: Entry | null, fresh: Entry): Entry {
    if (!e) return fresh;
    e.digest = undefined;
    const side: Side = compareLabels(fresh.label, e.label) < 0 ? 'left' : 'right';
    const child = insertEntry(e[side], fresh);
    e[side] = child;
    return above(child, e) ? rotateUp(e, side) : e;
}

function mergeEntries(a: Entry | null, b: Entry | null): Entry | null {
    if (!a) return b;
    if (!b) return a;
    if (above(a, b)) {
        a.digest = undefined;
        a.right = mergeEntries(a.right, b);
        return a;
    }
    b.digest = undefined;
    b.left = mergeEntries(a, b.left);
    return b;
}

function removeEntry(e: Entry | null, label: Uint8Array): Entry | null {
    if (!e) return null;
    e.digest = undefined;
    const c = compareLabels(label, e.label);
    if (c < 0) e.left = removeEntry(e.left, label);
    else if (c > 0) e.right = removeEntry(e.right, label);
    else return mergeEntries(e.left, e.right);
    return e;
}

function findEntry(subtree: SubtreeNode, label: Uint8Array): Entry | undefined {
    let e = subtree.root;
    while (e) {
        const c = compareLabels(label, e.label);
        if (c === 0) return e;
        e = c < 0 ? e.left : e.right;
    }
    return undefined;
}

/** Finds an entry and invalidates the digests on the way, because the caller will change it. */
function findEntryForUpdate(subtree: SubtreeNode, label: Uint8Array): Entry | undefined {
    let e = subtree.root;
    while (e) {
        e.digest = undefined;
        const c = compareLabels(label, e.label);
        if (c === 0) return e;
        e = c < 0 ? e.left : e.right;
    }
    return undefined;
}

function upsert(subtree: SubtreeNode, label: Uint8Array, node: TreeNode): void {
    const existing = findEntryForUpdate(subtree, label);
    if (existing) {
        existing.child = node;
        return;
    }
    const fresh: Entry = {
        label,
        priority: priorityOf(label),
        child: node,
        left: null,
        right: null,
        digest: undefined,
    };
    subtree.root = insertEntry(subtree.root, fresh);
    subtree.size++;
}

/** Largest entry with label < bound. */
function predecessorOf(subtree: SubtreeNode, bound: Uint8Array): Entry | undefined {
    let best: Entry | undefined;
    let e = subtree.root;
    while (e) {
        if (compareLabels(e.label, bound) < 0) {
            best = e;
            e = e.right;
        } else e = e.left;
    }
    return best;
}

/** Smallest entry with label > bound. */
function successorOf(subtree: SubtreeNode, bound: Uint8Array): Entry | undefined {
    let best: Entry | undefined;
    let e = subtree.root;
    while (e) {
        if (compareLabels(e.label, bound) > 0) {
            best = e;
            e = e.left;
        } else e = e.right;
    }
    return best;
}

function lastEntry(subtree: SubtreeNode): Entry | undefined {
    let e = subtree.root;
    while (e && e.right) e = e.right;
    return e ?? undefined;
}

// ---------------------------------------------------------------------------------------------
// Path operations. Mutations walk down from the root invalidating every entry they pass, which
// is what keeps the cached digests of all ancestors honest.

function walkToParent(tree: LabeledTree, path: Path, create: boolean): SubtreeNode | undefined {
    let node: SubtreeNode = tree.root;
    for (let i = 0; i < path.length - 1; i++) {
        const label = toLabel(path[i]);
        let entry = findEntryForUpdate(node, label);
        if (!entry) {
            if (!create) return undefined;
            upsert(node, label, newSubtree());
            entry = findEntry(node, label) as Entry;
        }
        if (entry.child.kind !== 'subtree') {
            if (!create) return undefined;
            throw new Error(`path prefix ${describePath(path.slice(0, i + 1))} is a leaf`);
        }
        node = entry.child;
    }
    return node;
}

function describePath(path: Path): string {
    return '/' + path.map((l) => (typeof l === 'string' ? l : toHex(l))).join('/');
}

/**
 * Puts a node at `path`, creating missing ancestors and replacing whatever was there. Nodes and
 * labels are kept by reference: attach a node in one place only and do not mutate label bytes.
 */
export function setNode(tree: LabeledTree, path: Path, node: TreeNode): void {
    if (path.length === 0) throw new Error('cannot replace the root of a labeled tree');
    const parent = walkToParent(tree, path, true) as SubtreeNode;
    upsert(parent, toLabel(path[path.length - 1]), node);
}

export function setLeaf(tree: LabeledTree, path: Path, value: Uint8Array): void {
    setNode(tree, path, newLeaf(value));
}

/** Makes sure a (possibly empty) subtree exists at `path`; an existing subtree is kept. */
export function ensureSubtree(tree: LabeledTree, path: Path): void {
    const existing = getNode(tree, path);
    if (existing?.kind === 'subtree') return;
    setNode(tree, path, newSubtree());
}

/** Removes the node at `path`; returns whether there was one. */
export function deletePath(tree: LabeledTree, path: Path): boolean {
    if (path.length === 0) throw new Error('cannot delete the root of a labeled tree');
    const label = toLabel(path[path.length - 1]);
    const parentBefore = getNode(tree, path.slice(0, -1));
    if (parentBefore?.kind !== 'subtree' || !findEntry(parentBefore, label)) return false;
    const parent = walkToParent(tree, path, false) as SubtreeNode;
    parent.root = removeEntry(parent.root, label);
    parent.size--;
    return true;
}

export function getNode(tree: LabeledTree, path: Path): TreeNode | undefined {
    let node: TreeNode = tree.root;
    for (const label of path) {
        if (node.kind !== 'subtree') return undefined;
        const entry = findEntry(node, toLabel(label));
        if (!entry) return undefined;
        node = entry.child;
    }
    return node;
}

export function getLeaf(tree: LabeledTree, path: Path): Uint8Array | undefined {
    const node = getNode(tree, path);
    return node?.kind === 'leaf' ? node.value : undefined;
}

/** Labels of the children at `path`, in byte order (empty when there is no subtree there). */
export function childLabels(tree: LabeledTree, path: Path): Uint8Array[] {
    const node = getNode(tree, path);
    const labels: Uint8Array[] = [];
    const visit = (e: Entry | null): void => {
        if (!e) return;
        visit(e.left);
        labels.push(e.label);
        visit(e.right);
    };
    if (node?.kind === 'subtree') visit(node.root);
    return labels;
}

// ---------------------------------------------------------------------------------------------
// Digests.

function leafDigest(leaf: LeafNode): Digest {
    return hash(DOMAIN_LEAF, leaf.value);
}

function nodeDigest(node: TreeNode): Digest {
    if (node.kind === 'leaf') return leafDigest(node);
    return node.root ? entryDigest(node.root) : EMPTY_DIGEST;
}

function labeledDigest(e: Entry): Digest {
    return hash(DOMAIN_LABELED, e.label, nodeDigest(e.child));
}

/** Digest of fork(left, labeled(e)), or of labeled(e) alone; needs fresh child digests. */
function innerDigest(e: Entry): Digest {
    const labeled = labeledDigest(e);
    return e.left ? hash(DOMAIN_FORK, entryDigest(e.left), labeled) : labeled;
}

function entryDigest(e: Entry): Digest {
    if (e.digest) return e.digest;
    const inner = innerDigest(e);
    e.digest = e.right ? hash(DOMAIN_FORK, inner, entryDigest(e.right)) : inner;
    return e.digest;
}

/** Root hash of the whole tree; only paths changed since the last call are re-hashed. */
export function rootDigest(tree: LabeledTree): Uint8Array {
    return digestBytes(nodeDigest(tree.root));
}

// ---------------------------------------------------------------------------------------------
// Witnesses.

const asLabel = (bytes: Uint8Array): NodeLabel => bytes as NodeLabel;
const asValue = (bytes: Uint8Array): NodeValue => bytes as NodeValue;
const pruned = (digest: Digest): HashTree => [NodeType.Pruned, digestBytes(digest) as NodeHash];

/** The requested paths folded into a trie; `full` marks that a path ends here. */
interface PathTrie {
    full: boolean;
    children: Map<string, { label: Uint8Array; trie: PathTrie }>;
}

function buildTrie(paths: readonly Path[]): PathTrie {
    const root: PathTrie = { full: false, children: new Map() };
    for (const path of paths) {
        let trie = root;
        for (const raw of path) {
            const label = toLabel(raw);
            const key = toHex(label);
            let next = trie.children.get(key);
            if (!next) {
                next = { label, trie: { full: false, children: new Map() } };
                trie.children.set(key, next);
            }
            trie = next.trie;
        }
        trie.full = true;
    }
    return root;
}

/** A label to reveal inside one subtree: with its content (`trie`) or only as a pruned label. */
interface Target {
    label: Uint8Array;
    trie: PathTrie | undefined;
}

/** The complete hash tree of a node, nothing pruned. */
export function fullHashTree(node: TreeNode): HashTree {
    if (node.kind === 'leaf') return [NodeType.Leaf, asValue(node.value)];
    return node.root ? fullEntryTree(node.root) : [NodeType.Empty];
}

function fullEntryTree(e: Entry): HashTree {
    const labeled: HashTree = [NodeType.Labeled, asLabel(e.label), fullHashTree(e.child)];
    const inner: HashTree = e.left ? [NodeType.Fork, fullEntryTree(e.left), labeled] : labeled;
    return e.right ? [NodeType.Fork, inner, fullEntryTree(e.right)] : inner;
}

/**
 * Mirrors the comparison @dfinity/agent 3.4.3 uses in `find_label` (true as soon as any byte of
 * `a` exceeds the byte of `b` at the same index). It agrees with byte order whenever a > b, but
 * can call a larger label "smaller", which matters for absence proofs (see revealLabelsFor).
 */
function agentSaysGreater(a: Uint8Array, b: Uint8Array): boolean {
    for (let i = 0; i < a.length; i++) {
        if (i < b.length && a[i] > b[i]) return true;
    }
    return false;
}

/**
 * Chooses the labels of one subtree to reveal. Requested labels that exist are revealed with
 * their content. For each requested label q that is absent, its neighbours are revealed (the
 * spec's absence proof: two adjacent labels around q, or the first/last label).
 *
 * On top of that, so that @dfinity/agent 3.4.3 also reports Absent rather than Unknown: its
 * find_label scans the revealed forest left to right and stops at the first label it considers
 * not smaller than q, answering Absent only if the element just before that label is a revealed
 * label (or there is none); if it never stops, the last element decides. So the last label is
 * revealed, and for each absent q the first revealed label the agent considers not smaller than
 * q gets its predecessor revealed too, repeating until that predecessor is one the agent calls
 * smaller. For typical labels this adds a label or two; the witness stays valid for every client.
 */
function revealLabelsFor(subtree: SubtreeNode, trie: PathTrie): Target[] {
    const targets = new Map<string, Target>();
    const absent: Uint8Array[] = [];
    const reveal = (e: Entry | undefined): boolean => {
        if (!e) return false;
        const key = toHex(e.label);
        if (targets.has(key)) return false;
        targets.set(key, { label: e.label, trie: undefined });
        return true;
    };
    const sorted = (): Target[] => [...targets.values()].sort((a, b) => compareLabels(a.label, b.label));
    for (const [key, { label, trie: sub }] of trie.children) {
        if (findEntry(subtree, label)) targets.set(key, { label, trie: sub });
        else absent.push(label);
    }
    for (const q of absent) {
        reveal(predecessorOf(subtree, q));
        reveal(successorOf(subtree, q));
    }
    if (absent.length > 0) {
        reveal(lastEntry(subtree));
        let changed = true;
        while (changed) {
            changed = false;
            for (const q of absent) {
                for (;;) {
                    const stop = sorted().find((t) => !agentSaysGreater(q, t.label));
                    if (!stop || !reveal(predecessorOf(subtree, stop.label))) break;
                    changed = true;
                }
            }
        }
    }
    return sorted();
}

function witnessNode(node: TreeNode, trie: PathTrie): HashTree {
    if (trie.full) return fullHashTree(node);
    // A requested path that continues below a leaf is absent; the leaf itself proves it.
    if (node.kind === 'leaf') return [NodeType.Leaf, asValue(node.value)];
    if (!node.root) return [NodeType.Empty];
    return witnessEntry(node.root, revealLabelsFor(node, trie));
}

/** `targets` are sorted and all lie within this entry's treap subtree. */
function witnessEntry(e: Entry, targets: Target[]): HashTree {
    if (targets.length === 0) return pruned(entryDigest(e));
    let split = 0;
    while (split < targets.length && compareLabels(targets[split].label, e.label) < 0) split++;
    const hit =
        split < targets.length && compareLabels(targets[split].label, e.label) === 0 ? targets[split] : undefined;
    const leftTargets = targets.slice(0, split);
    const rightTargets = targets.slice(hit ? split + 1 : split);

    let inner: HashTree;
    if (!hit && leftTargets.length === 0) {
        inner = pruned(innerDigest(e));
    } else {
        const labeled: HashTree = !hit
            ? pruned(labeledDigest(e))
            : [
                  NodeType.Labeled,
                  asLabel(e.label),
                  hit.trie ? witnessNode(e.child, hit.trie) : pruned(nodeDigest(e.child)),
              ];
        inner = e.left ? [NodeType.Fork, witnessEntry(e.left, leftTargets), labeled] : labeled;
    }
    return e.right ? [NodeType.Fork, inner, witnessEntry(e.right, rightTargets)] : inner;
}

/**
 * A hash tree revealing exactly `paths` (a path naming a subtree reveals all of it), with
 * absence proofs for requested labels that do not exist and everything else pruned. Its
 * reconstructed digest equals rootDigest(tree).
 */
export function witness(tree: LabeledTree, paths: readonly Path[]): HashTree {
    nodeDigest(tree.root); // refresh cached digests so pruned nodes can use them
    return witnessNode(tree.root, buildTrie(paths));
}
