// Gives a test or bench run one temporary folder of its own (TMPDIR) and removes it when the run
// ends, so the replicas' data directories of a run never outlive it on a shared disk.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const MARK = 'LEADERBOARD_RUN_TMPDIR';

/**
 * The run's folder: made once by the process that starts the run (jest's parent, the bench),
 * inherited by its workers and children through TMPDIR, removed when that process exits.
 */
function useRunTempRoot() {
    if (process.env[MARK]) return process.env[MARK];
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'leaderboard-run-'));
    process.env[MARK] = root;
    process.env.TMPDIR = root;
    process.on('exit', () => removeRunTempRoot());
    return root;
}

function removeRunTempRoot() {
    const root = process.env[MARK];
    if (root) fs.rmSync(root, { recursive: true, force: true });
}

module.exports = { useRunTempRoot, removeRunTempRoot };
