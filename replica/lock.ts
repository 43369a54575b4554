// One replica per data directory: a second one would corrupt the log.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { tryLock } from 'fs-native-extensions';

/**
 * Takes the data directory's lock or throws if a live replica holds it; returns the release.
 *
 * The lock is an exclusive lock on the file LOCK, held through an open file description (Linux
 * open-file-description lock, flock on macOS, LockFileEx on Windows, from fs-native-extensions,
 * whose npm package ships the prebuilt addon, so installing it builds and downloads nothing).
 * The kernel drops such a lock when the last descriptor closes, which includes the holder's
 * death by kill -9, so a restart never has to guess whether a recorded PID is still the holder
 * (after a crash it may be a zombie or a reused PID: a PID file cannot tell). Unlike POSIX
 * fcntl locks it also conflicts within one process, so two replicas in one process (tests, a
 * worker thread next to the main thread) are refused too. The holder's PID is written into the
 * file only to name it in the error; nothing trusts it. The file stays on disk: deleting it
 * would let a second opener lock a different inode than the first.
 */
export function lockDataDir(dir: string): () => void {
    const fd = fs.openSync(path.join(dir, 'LOCK'), fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
    let locked = false;
    try {
        if (!tryLock(fd)) {
            const pid = Number(fs.readFileSync(fd, 'utf8').trim());
            const holder =
                Number.isInteger(pid) && pid > 0 ? ` (process ${pid}${pid === process.pid ? ', this one' : ''})` : '';
            throw new Error(`The data directory ${dir} is in use by another replica${holder}.`);
        }
        fs.ftruncateSync(fd, 0);
        fs.writeSync(fd, `${process.pid}\n`, 0);
        locked = true;
    } finally {
        if (!locked) fs.closeSync(fd);
    }
    let released = false;
    return () => {
        if (released) return; // never close a descriptor number twice: it may be reused by then
        released = true;
        try {
            fs.ftruncateSync(fd, 0);
        } finally {
            fs.closeSync(fd); // releases the lock
        }
    };
}
