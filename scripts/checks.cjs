// `npm test`'s static checks: the type check and the lint side by side (each keeps one core
// busy for about half a minute), each one's output printed whole when it ends; fails when either does.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const SCRIPTS = ['typecheck', 'lint'];

/** `npm run <script>`: its exit code and everything it printed, in order. */
function run(script) {
    return new Promise((resolve) => {
        const child = spawn('npm', ['run', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
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
        SCRIPTS.map((script) =>
            run(script).then((result) => {
                process.stdout.write(result.output);
                return result;
            }),
        ),
    );
    const failed = SCRIPTS.filter((_, i) => results[i].code !== 0);
    if (failed.length > 0) {
        console.error(`npm test: ${failed.join(' and ')} failed`);
        process.exitCode = 1;
    }
}

void main();
