// The rank index's face: an order-statistic index over a board's entries (tree.ts), its snapshot (snapshot.ts).
export { GROWTH } from './arrays';
export { CHUNK_BYTES, SNAPSHOT_VERSION } from './snapshot';
export { createRankIndex, restoreRankIndex } from './tree';
export type { RankIndex, RankKey, RankOrder } from './types';
