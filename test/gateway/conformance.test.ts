// Runs the HTTP contract's conformance cases (./conformance/*.ts), one jest test per case, a
// `describe` per area and rule: each case builds its own data (a game of its own, its setup steps)
// on a shared service, or on a service of its own for `clock` cases, then sends its request to the
// gateway and, for `direct` cases, the same path to the canister's own HTTP interface
// (./conformance/runner.ts). Cases are independent: any one runs alone (`-t '<case name>'`) or in
// any order (`--randomize`). Known gaps run too and are named [KNOWN GAP].

import { conformanceSuite } from './conformance/suite';

conformanceSuite();
