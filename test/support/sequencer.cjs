// The order jest runs test files in: its own (failed first, then longest by the last run's
// timings), except that files it has no timing for start with the ones known to take minutes.
// On a fresh clone jest has no timings and orders by file size, which starts the conformance
// suite and the soak (small files that run for minutes) last, one worker idle while they finish.
const Sequencer = require('@jest/test-sequencer').default;

/** The longest files of a run on 2 cores, longest first (a hint only: a stale entry costs nothing). */
const LONGEST = [
    'test/gateway/conformance.test.ts',
    'test/soak/soak.test.ts',
    'test/gateway/move-under-load.test.ts',
    'test/local/dashboard-webhooks.test.ts',
    'test/scripts/deploy.test.ts',
    'test/gateway/backup-size.test.ts',
    'test/gateway/webhooks.test.ts',
    'test/gateway/npm-start.test.ts',
    'test/gateway/service-backup.test.ts',
    'test/canister/release-upgrade-shards.test.ts',
    'test/local/link-flow-shards.test.ts',
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
