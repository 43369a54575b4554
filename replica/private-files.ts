// Data directories hold players' and developers' emails, API keys and private keys: they are
// the owner's alone. Files are created 0600 and directories 0700, and what an older version
// left looser is tightened when the directory is opened.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

/** Creates the directory (and missing parents) 0700; an existing one is tightened. */
export function privateDir(dir: string): void {
    fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    tighten(dir, fs.statSync(dir));
}

function tighten(file: string, stat: fs.Stats): void {
    if ((stat.mode & 0o077) !== 0)
        fs.chmodSync(file, (stat.mode & 0o700) | (stat.isDirectory() ? DIR_MODE : FILE_MODE));
}

/** Takes group and other permissions off the directory and everything in it (symlinks are left alone). */
export function tightenTree(dir: string): void {
    const stat = fs.lstatSync(dir);
    if (stat.isSymbolicLink()) return;
    tighten(dir, stat);
    if (!stat.isDirectory()) return;
    for (const name of fs.readdirSync(dir)) tightenTree(path.join(dir, name));
}
