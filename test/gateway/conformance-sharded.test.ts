// The HTTP contract's conformance cases (./conformance/*.ts, the same cases as
// conformance.test.ts) against a directory with two shards: every case's game is placed on a
// shard by the directory, alternately, and the gateway routes its calls there (issue 27: the
// contract holds with SHARDS=2). The cases of the shared service only: the `clock` cases run on
// a shard in conformance.test.ts, and here each would install two more shards of its own for
// no more routing than the shared cases exercise. The checks of the cases themselves run once,
// in conformance.test.ts.
import { conformanceSuite } from './conformance/suite';

conformanceSuite({ stack: { shards: 2 }, clock: false, meta: false });
