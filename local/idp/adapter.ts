// oidc-provider's storage (sessions, interactions, grants, authorization codes, tokens...) kept
// in <dataDir>/idp/adapter.json: the whole set in memory, and every change written through to
// the file (atomically, coalesced: see WriteQueue) before the provider is told it is done.
// Entries past their expiry are never returned and are dropped on load and on each write.
import * as path from 'node:path';

import type { Adapter, AdapterPayload } from 'oidc-provider';

import { readJsonFile, writeJsonFile, WriteQueue } from './files';

interface Entry {
    payload: AdapterPayload;
    /** Epoch ms; absent: no expiry. */
    expiresAt?: number;
}

/** Models whose entries belong to a grant and go when it is revoked. */
const GRANTABLE = new Set([
    'AccessToken',
    'AuthorizationCode',
    'RefreshToken',
    'DeviceCode',
    'BackchannelAuthenticationRequest',
    'PreAuthorizedCode',
]);

const FILE_VERSION = 1;

export class FileAdapterStore {
    private readonly entries = new Map<string, Entry>();
    private readonly file: string;
    private readonly queue: WriteQueue;

    constructor(
        dir: string,
        private readonly now: () => number = Date.now,
    ) {
        this.file = path.join(dir, 'adapter.json');
        const stored = readJsonFile<{ version: number; entries: Record<string, Entry> }>(this.file);
        if (stored !== undefined) {
            if (stored.version !== FILE_VERSION) throw new Error(`${this.file}: unknown version ${stored.version}`);
            for (const [key, entry] of Object.entries(stored.entries))
                if (!this.expired(entry)) this.entries.set(key, entry);
        }
        this.queue = new WriteQueue(() => {
            this.dropExpired();
            return writeJsonFile(this.file, { version: FILE_VERSION, entries: Object.fromEntries(this.entries) });
        });
    }

    /** The factory to give oidc-provider as its `adapter`. */
    readonly factory = (model: string): Adapter => new FileAdapter(this, model);

    get(key: string): AdapterPayload | undefined {
        const entry = this.entries.get(key);
        if (entry === undefined) return undefined;
        if (this.expired(entry)) {
            this.entries.delete(key);
            return undefined;
        }
        return structuredClone(entry.payload);
    }

    set(key: string, payload: AdapterPayload, expiresInSeconds: number | undefined): Promise<void> {
        const expiresAt = typeof expiresInSeconds === 'number' ? this.now() + expiresInSeconds * 1000 : undefined;
        this.entries.set(key, { payload: structuredClone(payload), ...(expiresAt === undefined ? {} : { expiresAt }) });
        return this.queue.schedule();
    }

    update(key: string, change: (payload: AdapterPayload) => void): Promise<void> {
        const entry = this.entries.get(key);
        if (entry === undefined || this.expired(entry)) return Promise.resolve();
        change(entry.payload);
        return this.queue.schedule();
    }

    delete(keys: string[]): Promise<void> {
        let changed = false;
        for (const key of keys) changed = this.entries.delete(key) || changed;
        return changed ? this.queue.schedule() : Promise.resolve();
    }

    /** The first live entry of the model whose payload matches. */
    findWhere(model: string, match: (payload: AdapterPayload) => boolean): AdapterPayload | undefined {
        for (const [key, entry] of this.entries) {
            if (key.startsWith(`${model}:`) && !this.expired(entry) && match(entry.payload))
                return structuredClone(entry.payload);
        }
        return undefined;
    }

    keysWhere(match: (model: string, payload: AdapterPayload) => boolean): string[] {
        return [...this.entries]
            .filter(([key, entry]) => match(key.slice(0, key.indexOf(':')), entry.payload))
            .map(([key]) => key);
    }

    flush(): Promise<void> {
        return this.queue.idle();
    }

    private expired(entry: Entry): boolean {
        return entry.expiresAt !== undefined && entry.expiresAt <= this.now();
    }

    private dropExpired(): void {
        for (const [key, entry] of this.entries) if (this.expired(entry)) this.entries.delete(key);
    }
}

class FileAdapter implements Adapter {
    constructor(
        private readonly store: FileAdapterStore,
        private readonly model: string,
    ) {}

    private key(id: string): string {
        return `${this.model}:${id}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
        await this.store.set(this.key(id), payload, expiresIn);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
        return this.store.get(this.key(id));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
        return this.store.findWhere(this.model, (payload) => payload.uid === uid);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
        return this.store.findWhere(this.model, (payload) => payload.userCode === userCode);
    }

    async consume(id: string): Promise<void> {
        await this.store.update(this.key(id), (payload) => {
            payload.consumed = Math.floor(Date.now() / 1000);
        });
    }

    async destroy(id: string): Promise<void> {
        await this.store.delete([this.key(id)]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
        await this.store.delete(
            this.store.keysWhere((model, payload) => GRANTABLE.has(model) && payload.grantId === grantId),
        );
    }
}
