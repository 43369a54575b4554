// `npm test`'s steps before jest, side by side (each keeps about one core busy for half a minute):
// building the canisters (jest's global setup, which then finds them built), the type check and
// the lint. Each one's output is printed whole when it ends; fails when any of them does.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const STEPS = [
    { name: 'the canister build', command: process.execPath, args: ['test/global-setup.cjs'] },
    { name: 'typecheck', command: 'npm', args: ['run', 'typecheck'] },
    { name: 'lint', command: 'npm', args: ['run', 'lint'] },
];

/** Runs a step: its exit code and everything it printed, in order. */
function run({ command, args }) {
    return new Promise((resolve) => {
        const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('error', (e) => resolve({ code: 1, output: `${output}${e.message}\n` }));
        child.on('close', (code, signal) =>
            resolve({ code: code ?? 1, output: signal ? `${output}${signal}\n` : output }),
        );
    });
}

async function main() {
    const results = await Promise.all(
        STEPS.map((step) =>
            run(step).then((result) => {
                process.stdout.write(result.output);
                return result;
            }),
        ),
    );
    const failed = STEPS.filter((_, i) => results[i].code !== 0).map((step) => step.name);
    if (failed.length > 0) {
        console.error(`npm test: ${failed.join(', ')} failed`);
        process.exitCode = 1;
    }
}

void main();
