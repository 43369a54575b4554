// The agent's own certificate checks (time syncs, canister status reads) with the gateway's BLS
// verifier: the same IC-flavour verification in mcl, ~10x faster than the agent's JavaScript one,
// which tests pay three times per syncTime (every `advance`, every client's start). Loaded by
// the leaderboard stacks' support (./canister, ./gateway); the replica's own tests keep the
// agent's verifier. A changed agent layout fails here rather than go unseen.
import * as path from 'node:path';

import { blsVerify } from '../../gateway/ic/bls';

/** The agent's default verifier module (not in its exports map: reached by its file). */
const AGENT_BLS = path.join(path.dirname(require.resolve('@dfinity/agent')), 'utils', 'bls.js');

// require: jest's, so that this is the very module the agent's certificate code holds.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const agentBls = require(AGENT_BLS) as { blsVerify?: unknown };
if (typeof agentBls.blsVerify !== 'function') throw new Error(`@dfinity/agent changed: no blsVerify in ${AGENT_BLS}`);
agentBls.blsVerify = blsVerify;
