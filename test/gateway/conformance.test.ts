// Runs the HTTP contract's conformance cases (./conformance/*.ts), one jest test per case, a
// `describe` per area and rule: each case builds its own data (a game of its own, its setup steps)
// on a shared service, or on a service of its own for `clock` cases, then sends its request to the
// gateway and, for `direct` cases, the same path to the canister's own HTTP interface
// (./conformance/runner.ts). Cases are independent: any one runs alone (`-t '<case name>'`) or in
// any order (`--randomize`). Known gaps run too and are named [KNOWN GAP]. The stack is the one
// `npm start` runs by default: a directory with one shard, where every case's game lives.
import { DEFAULT_STACK } from '../support/gateway';
import { conformanceSuite } from './conformance/suite';

conformanceSuite({ stack: DEFAULT_STACK });
