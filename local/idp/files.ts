// Small files of the provider's state: read as JSON, written atomically (a temporary file in
// the same directory, flushed, then renamed over the old one), readable by the owner only.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export function readJsonFile<T>(file: string): T | undefined {
    let text: string;
    try {
        text = fs.readFileSync(file, 'utf8');
    } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
    }
    try {
        return JSON.parse(text) as T;
    } catch (e) {
        throw new Error(`${file} is not valid JSON: ${(e as Error).message}`);
    }
}

export function writeJsonFileSync(file: string, value: unknown): void {
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    const fd = fs.openSync(temp, 'wx', 0o600);
    try {
        fs.writeFileSync(fd, JSON.stringify(value));
        fs.fsyncSync(fd);
    } finally {
        fs.closeSync(fd);
    }
    try {
        fs.renameSync(temp, file);
    } catch (e) {
        fs.rmSync(temp, { force: true });
        throw e;
    }
}

export async function writeJsonFile(file: string, value: unknown): Promise<void> {
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await fs.promises.open(temp, 'wx', 0o600);
    try {
        await handle.writeFile(JSON.stringify(value));
        await handle.sync();
    } finally {
        await handle.close();
    }
    try {
        await fs.promises.rename(temp, file);
    } catch (e) {
        await fs.promises.rm(temp, { force: true });
        throw e;
    }
}

/** Leftovers of writes interrupted by a crash. */
export function removeTempFiles(dir: string): void {
    for (const name of fs.readdirSync(dir)) if (name.endsWith('.tmp')) fs.rmSync(path.join(dir, name), { force: true });
}

/**
 * Runs writes of one file one after another and coalesces bursts: a write requested while one is
 * under way runs once after it, with the state as it is then, and every caller's promise settles
 * when a write that includes its change is on disk.
 */
export class WriteQueue {
    private running: Promise<void> | undefined;
    private next: Promise<void> | undefined;

    constructor(private readonly write: () => Promise<void>) {}

    schedule(): Promise<void> {
        if (this.running === undefined) {
            this.running = this.write().finally(() => {
                this.running = undefined;
            });
            return this.running;
        }
        if (this.next === undefined) {
            this.next = this.running
                .catch(() => undefined)
                .then(() => {
                    this.next = undefined;
                    return this.schedule();
                });
        }
        return this.next;
    }

    /** Settles when every scheduled write has. */
    async idle(): Promise<void> {
        while (this.running !== undefined || this.next !== undefined)
            await (this.next ?? this.running)?.catch(() => undefined);
    }
}
