// The JavaScript client's size as a web game pays for it: its browser module minified and
// gzipped, without the verifier (loaded only for verify: true), from a fresh build of client/.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const CLIENT = path.join(__dirname, '..', '..', 'client');

export function benchClientSize(): { minified: number; gzipped: number } {
    execFileSync(process.execPath, [path.join(CLIENT, 'scripts', 'build.mjs')], { cwd: CLIENT, stdio: 'ignore' });
    const size = JSON.parse(fs.readFileSync(path.join(CLIENT, 'dist', 'size.json'), 'utf8')) as {
        minified: number;
        gzipped: number;
    };
    console.log('\nJavaScript client (client/, without verification)');
    console.log('| build | bytes |\n|---|---:|');
    console.log(`| minified | ${size.minified.toLocaleString('en-US')} |`);
    console.log(`| minified + gzipped | ${size.gzipped.toLocaleString('en-US')} |`);
    return size;
}
