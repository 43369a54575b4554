// The order jest runs test files in: its own (failed first, then longest by the last run's
// timings), except that files it has no timing for start with the ones known to take minutes.
// On a fresh clone jest has no timings and orders by file size, which starts the conformance
// suite and the soak (small files that run for minutes) last, one worker idle while they finish.
const Sequencer = require('@jest/test-sequencer').default;

/**
 * Every file over 20 s in a whole run on 2 cores, longest first (a hint only: a stale entry costs
 * nothing). A long file left out starts among the small ones at the end, one worker idle meanwhile.
 */
const LONGEST = [
    'test/gateway/conformance.test.ts',
    'test/soak/soak.test.ts',
    'test/scripts/deploy.test.ts',
    'test/gateway/service-backup.test.ts',
    'test/canister/release-upgrade-shards.test.ts',
    'test/local/dashboard-webhooks.test.ts',
    'test/gateway/webhooks.test.ts',
    'test/gateway/leagues-e2e.test.ts',
    'test/gateway/npm-start.test.ts',
    'test/gateway/move-under-load.test.ts',
    'test/local/link-flow-shards.test.ts',
    'test/gateway/board-export.test.ts',
    'test/gateway/conformance-sharded.test.ts',
    'test/gateway/backup-size.test.ts',
    'test/canister/certified-reads.test.ts',
    'test/gateway/shards.test.ts',
    'test/gateway/sign-in-limits.test.ts',
    'test/gateway/admin.test.ts',
    'test/gateway/backup.test.ts',
    'test/local/dashboard.test.ts',
    'test/canister/release-upgrade.test.ts',
    'test/local/dashboard-moderation.test.ts',
    'test/local/link-flow.test.ts',
    'test/gateway/resilience.test.ts',
    'test/local/dashboard-boards.test.ts',
    'test/local/idp-sign-in.test.ts',
    'test/canister/webhooks.test.ts',
    'test/canister/move.test.ts',
    'test/local/dashboard-leagues.test.ts',
    'test/local/dashboard-server-key.test.ts',
    'test/gateway/cycles-funding.test.ts',
    'test/canister/shards.test.ts',
];

const hint = (test) => {
    const i = LONGEST.findIndex((file) => test.path.endsWith(file));
    return i < 0 ? LONGEST.length : i;
};

class LongestFirst extends Sequencer {
    sort(tests) {
        // Jest's order: failed files first, then files without a timing (by size), then by timing.
        const sorted = super.sort(tests);
        const failed = sorted.filter((test) => this.hasFailed(test));
        const rest = sorted.filter((test) => !this.hasFailed(test));
        const untimed = rest.filter((test) => test.duration === undefined);
        const timed = rest.filter((test) => test.duration !== undefined);
        // Array.prototype.sort is stable: among files without a hint, jest's order stays.
        return [...failed, ...untimed.sort((a, b) => hint(a) - hint(b)), ...timed];
    }
}

module.exports = LongestFirst;
