// Local accounts of the built-in provider: an email, a password kept only as a scrypt hash
// with a per-account random salt, an optional display name, and a stable random subject id.
// Stored in <dataDir>/idp/accounts.json (written atomically).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import * as path from 'node:path';

import { readJsonFile, writeJsonFile, WriteQueue } from './files';

export interface Account {
    /** The OpenID subject: random, never the email, never reused. */
    id: string;
    /** As typed at sign-up (trimmed). */
    email: string;
    name?: string;
    /** `scrypt$<log2 N>$<r>$<p>$<salt, base64url>$<hash, base64url>` */
    password: string;
    createdAt: string;
}

/**
 * scrypt with N = 2^16, r = 8, p = 2: one of OWASP's equivalent recommended settings
 * (64 MiB of memory, about 0.4 s on one core), 16-byte salt, 32-byte output. The parameters are
 * stored with each hash, so they can be raised later without breaking existing accounts.
 */
const SCRYPT = { log2N: 16, r: 8, p: 2, saltBytes: 16, keyBytes: 32 };
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;
export const MAX_NAME_LENGTH = 100;
export const MAX_EMAIL_LENGTH = 254;

function scryptAsync(password: string, salt: Buffer, keyBytes: number, options: ScryptOptions): Promise<Buffer> {
    return new Promise((resolve, reject) =>
        scrypt(password, salt, keyBytes, options, (e, key) => (e === null ? resolve(key) : reject(e))),
    );
}

function scryptOptions(log2N: number, r: number, p: number): ScryptOptions {
    // maxmem must exceed 128 * N * r bytes.
    return { N: 2 ** log2N, r, p, maxmem: 256 * 2 ** log2N * r };
}

/** NFKC so that the same password typed on different keyboards hashes the same (NIST SP 800-63B). */
function normalizePassword(password: string): string {
    return password.normalize('NFKC');
}

export async function hashPassword(password: string): Promise<string> {
    const { log2N, r, p, saltBytes, keyBytes } = SCRYPT;
    const salt = randomBytes(saltBytes);
    const key = await scryptAsync(normalizePassword(password), salt, keyBytes, scryptOptions(log2N, r, p));
    return ['scrypt', log2N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
    const [scheme, log2N, r, p, salt, hash] = stored.split('$');
    if (scheme !== 'scrypt' || hash === undefined) throw new Error('Unknown password hash format');
    const expected = Buffer.from(hash, 'base64url');
    const key = await scryptAsync(
        normalizePassword(password),
        Buffer.from(salt, 'base64url'),
        expected.length,
        scryptOptions(Number(log2N), Number(r), Number(p)),
    );
    return timingSafeEqual(key, expected);
}

/** Case-insensitive: one account per address however it is capitalized. */
export function emailKey(email: string): string {
    return email.trim().toLowerCase();
}

export type SignUpError = { field: 'email' | 'password' | 'name'; message: string };

export function validateSignUp(input: { email: string; password: string; name: string }): SignUpError[] {
    const errors: SignUpError[] = [];
    const email = input.email.trim();
    if (email === '') errors.push({ field: 'email', message: 'Enter your email address.' });
    else if (email.length > MAX_EMAIL_LENGTH || !/^[^\s@]+@[^\s@]+$/.test(email))
        errors.push({ field: 'email', message: 'Enter a valid email address, like name@example.com.' });
    const passwordLength = [...input.password].length;
    if (passwordLength < MIN_PASSWORD_LENGTH)
        errors.push({
            field: 'password',
            message: `Use at least ${MIN_PASSWORD_LENGTH} characters for your password.`,
        });
    else if (passwordLength > MAX_PASSWORD_LENGTH)
        errors.push({ field: 'password', message: `Use at most ${MAX_PASSWORD_LENGTH} characters for your password.` });
    const name = input.name.trim();
    if ([...name].length > MAX_NAME_LENGTH)
        errors.push({ field: 'name', message: `Use at most ${MAX_NAME_LENGTH} characters for your name.` });
    else if (/[\u0000-\u001f\u007f]/.test(name))
        errors.push({ field: 'name', message: 'Your name cannot contain control characters.' });
    return errors;
}

export class AccountStore {
    private readonly byId = new Map<string, Account>();
    private readonly byEmail = new Map<string, Account>();
    private readonly file: string;
    private readonly queue: WriteQueue;
    private dummyHash: Promise<string> | undefined;

    constructor(dir: string) {
        this.file = path.join(dir, 'accounts.json');
        for (const account of readJsonFile<{ accounts: Account[] }>(this.file)?.accounts ?? []) {
            this.byId.set(account.id, account);
            this.byEmail.set(emailKey(account.email), account);
        }
        this.queue = new WriteQueue(() => writeJsonFile(this.file, { accounts: [...this.byId.values()] }));
    }

    has(email: string): boolean {
        return this.byEmail.has(emailKey(email));
    }

    get(id: string): Account | undefined {
        return this.byId.get(id);
    }

    /** Creates the account, or returns 'taken' when the email already has one. Input must have passed validateSignUp. */
    async create(input: { email: string; password: string; name: string }): Promise<Account | 'taken'> {
        if (this.byEmail.has(emailKey(input.email))) return 'taken';
        const password = await hashPassword(input.password);
        // Checked again: another sign-up with this email may have finished while hashing.
        if (this.byEmail.has(emailKey(input.email))) return 'taken';
        const name = input.name.trim();
        const account: Account = {
            id: randomBytes(16).toString('base64url'),
            email: input.email.trim(),
            ...(name === '' ? {} : { name }),
            password,
            createdAt: new Date().toISOString(),
        };
        this.byId.set(account.id, account);
        this.byEmail.set(emailKey(account.email), account);
        await this.queue.schedule();
        return account;
    }

    /**
     * The account when the email has one and the password is its own. An unknown email costs a
     * hash all the same, so the answer's timing does not tell whether an account exists.
     */
    async authenticate(email: string, password: string): Promise<Account | undefined> {
        const account = this.byEmail.get(emailKey(email));
        if (account === undefined || [...password].length > MAX_PASSWORD_LENGTH) {
            this.dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
            await verifyPassword(password.slice(0, MAX_PASSWORD_LENGTH), await this.dummyHash);
            return undefined;
        }
        return (await verifyPassword(password, account.password)) ? account : undefined;
    }

    flush(): Promise<void> {
        return this.queue.idle();
    }
}

/**
 * Failed sign-ins, per client (its address: IPv6 by /64) and per account (email address, known
 * or not, so that throttling tells nothing about which accounts exist), kept in memory:
 *
 * - a client with `clientLimit` failures within `windowMs` is paused until the oldest leaves the
 *   window (any email, even the right password: it blocks only itself);
 * - past `freeFailures` failures of one account within the window, every further wrong
 *   password for it pauses the client that sent it, for a delay that doubles with each
 *   failure (30 s, 1 min, 2 min, ... at most the window): an attacker gets about one guess per
 *   address per 15 minutes at that account.
 *
 * An account is never locked: the right password from a client that is not paused signs in,
 * however many wrong ones others sent. A sign-in forgives nothing: failures leave with the
 * window (else a guesser would sign in to its own account between guesses to reset its count).
 */
export class LoginThrottle {
    private readonly clientFailures = new Map<string, number[]>();
    private readonly accountFailures = new Map<string, number[]>();
    private readonly pausedUntil = new Map<string, number>();

    constructor(
        private readonly o: {
            clientLimit: number;
            freeFailures: number;
            firstDelayMs: number;
            windowMs: number;
            now: () => number;
        } = { clientLimit: 10, freeFailures: 5, firstDelayMs: 30_000, windowMs: 15 * 60_000, now: Date.now },
    ) {}

    /** 0 when this client may try a sign-in now, otherwise the milliseconds until it may. */
    retryAfterMs(client: string): number {
        const now = this.o.now();
        const recent = this.recent(this.clientFailures, client);
        const byCount =
            recent.length < this.o.clientLimit ? 0 : recent[recent.length - this.o.clientLimit] + this.o.windowMs;
        const paused = this.pausedUntil.get(client) ?? 0;
        if (paused <= now) this.pausedUntil.delete(client);
        return Math.max(0, byCount - now, paused - now);
    }

    /** A wrong password (or unknown email) from `client` for `email`. */
    recordFailure(client: string, email: string): void {
        const now = this.o.now();
        const key = emailKey(email);
        // Only the last few failures matter: a client's last `clientLimit`, an account's count up
        // to where the delay stops growing (so an account under attack costs no more).
        this.clientFailures.set(client, [...this.recent(this.clientFailures, client), now].slice(-this.o.clientLimit));
        const account = [...this.recent(this.accountFailures, key), now].slice(-(this.o.freeFailures + 32));
        this.accountFailures.set(key, account);
        const past = account.length - this.o.freeFailures;
        if (past > 0) {
            const delay = Math.min(this.o.windowMs, this.o.firstDelayMs * 2 ** Math.min(past - 1, 30));
            this.pausedUntil.set(client, Math.max(this.pausedUntil.get(client) ?? 0, now + delay));
        }
        if (this.clientFailures.size + this.accountFailures.size + this.pausedUntil.size > 30_000) this.dropStale();
    }

    private dropStale(): void {
        for (const key of [...this.clientFailures.keys()]) this.recent(this.clientFailures, key);
        for (const key of [...this.accountFailures.keys()]) this.recent(this.accountFailures, key);
        for (const [client, until] of [...this.pausedUntil]) if (until <= this.o.now()) this.pausedUntil.delete(client);
    }

    private recent(failures: Map<string, number[]>, key: string): number[] {
        const cutoff = this.o.now() - this.o.windowMs;
        const recent = (failures.get(key) ?? []).filter((t) => t > cutoff);
        if (recent.length === 0) failures.delete(key);
        else failures.set(key, recent);
        return recent;
    }
}
