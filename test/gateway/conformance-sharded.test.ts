// The HTTP contract's conformance cases (./conformance/*.ts, the same cases as
// conformance.test.ts, which runs every case on npm start's default stack: a directory and one
// shard) against a directory with two shards, every case's game placed on a shard by the
// directory, alternately: the areas where more than one shard is in play (platform counts over
// every canister, device codes found through the directory). The other areas'
// cases touch one game only, routed to its shard as with one shard; the `clock` cases would each
// install two more shards of their own. The checks of the cases themselves run once, in
// conformance.test.ts.
import { conformanceSuite } from './conformance/suite';

conformanceSuite({
    stack: { shards: 2 },
    clock: false,
    meta: false,
    areas: ['platform, errors and credentials', 'sign-in'],
});
