// The HTTP contract's conformance cases (./conformance/*.ts, the same cases as
// conformance.test.ts) against a directory with two shards: every case's game is placed on a
// shard by the directory, and the gateway routes its calls there (issue 27: the contract holds
// with SHARDS=2). The checks of the cases themselves run once, in conformance.test.ts.
import { conformanceSuite } from './conformance/suite';

conformanceSuite({ shards: 2, meta: false });
