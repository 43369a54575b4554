// A canister that exercises the replica: heap and stable state, traps, timers,
// randomness, inter-canister calls, certified data and the HTTP gateway path. Its HTTP types
// repeat replica/http/canister-http.ts's on purpose: a canister is built from its own sources,
// and what it declares is what the replica must accept.
import {
    call,
    certifiedDataSet,
    dataCertificate,
    IDL,
    init,
    msgCaller,
    postUpgrade,
    Principal,
    query,
    setTimer,
    StableBTreeMap,
    time,
    trap,
    update,
} from 'azle';

// Azle's TextDecoder is text-encoding-utf-8 here (the root package.json's `overrides`), which
// knows UTF-8 by the name "utf-8" alone, where Candid asks for "utf8" (the leaderboard canister's
// canister/ascii-text-decoder.ts maps every label of UTF-8).
const Utf8Only = globalThis.TextDecoder;
globalThis.TextDecoder = class extends Utf8Only {
    constructor(label?: string, options?: TextDecoderOptions) {
        super(label === 'utf8' ? 'utf-8' : label, options);
    }
};

const Header = IDL.Tuple(IDL.Text, IDL.Text);
const HttpRequest = IDL.Record({
    method: IDL.Text,
    url: IDL.Text,
    headers: IDL.Vec(Header),
    body: IDL.Vec(IDL.Nat8),
    certificate_version: IDL.Opt(IDL.Nat16),
});
const HttpUpdateRequest = IDL.Record({
    method: IDL.Text,
    url: IDL.Text,
    headers: IDL.Vec(Header),
    body: IDL.Vec(IDL.Nat8),
});
const HttpResponse = IDL.Record({
    status_code: IDL.Nat16,
    headers: IDL.Vec(Header),
    body: IDL.Vec(IDL.Nat8),
    upgrade: IDL.Opt(IDL.Bool),
});
type HttpRequest = { method: string; url: string; headers: [string, string][]; body: Uint8Array };
type HttpResponse = { status_code: number; headers: [string, string][]; body: Uint8Array; upgrade: [] | [boolean] };

function json(status: number, value: unknown, upgrade = false): HttpResponse {
    return {
        status_code: status,
        headers: [
            ['content-type', 'application/json'],
            ['access-control-allow-origin', '*'],
        ],
        body: new TextEncoder().encode(JSON.stringify(value)),
        upgrade: upgrade ? [true] : [],
    };
}

export default class {
    store = new StableBTreeMap<string, string>(0);
    counter = 0n;
    timerFiredAt: bigint | undefined = undefined;
    label = '';
    upgrades = 0;

    @init([IDL.Opt(IDL.Text)])
    init(label: [] | [string]): void {
        this.label = label[0] ?? 'unnamed';
    }

    @postUpgrade([IDL.Opt(IDL.Text)])
    postUpgrade(label: [] | [string]): void {
        this.label = label[0] ?? 'unnamed';
        this.upgrades += 1;
    }

    @query([], IDL.Text)
    label_(): string {
        return `${this.label}:${this.upgrades}`;
    }

    @update([], IDL.Nat64)
    increment(): bigint {
        this.counter += 1n;
        return this.counter;
    }

    @query([], IDL.Nat64)
    count(): bigint {
        return this.counter;
    }

    @update([], IDL.Nat64)
    incrementThenTrap(): bigint {
        this.counter += 1n;
        this.store.insert('written-before-trap', 'yes');
        trap('deliberate trap after writing');
    }

    @query([], IDL.Nat64)
    incrementInQuery(): bigint {
        this.counter += 1n;
        this.store.insert('written-in-query', 'yes');
        return this.counter;
    }

    @update([IDL.Text, IDL.Text], IDL.Nat64)
    put(key: string, value: string): bigint {
        this.store.insert(key, value);
        return this.store.len();
    }

    @query([IDL.Text], IDL.Opt(IDL.Text))
    get(key: string): [string] | [] {
        const value = this.store.get(key);
        return value === undefined ? [] : [value];
    }

    /** Writes a key, its mirror and bumps the heap counter: all or nothing. */
    @update([IDL.Text, IDL.Text], IDL.Nat64)
    putPair(key: string, value: string): bigint {
        this.store.insert(`pair:${key}`, value);
        this.store.insert(`mirror:${key}`, value);
        this.counter += 1n;
        return this.counter;
    }

    /** Whether every pair has its mirror and the heap counter matches the number of pairs. */
    @query([], IDL.Record({ pairs: IDL.Nat64, counter: IDL.Nat64, consistent: IDL.Bool }))
    checkPairs(): { pairs: bigint; counter: bigint; consistent: boolean } {
        let pairs = 0n;
        let consistent = true;
        for (const [key, value] of this.store.items()) {
            if (!key.startsWith('pair:')) continue;
            pairs += 1n;
            if (this.store.get(`mirror:${key.slice(5)}`) !== value) consistent = false;
        }
        return { pairs, counter: this.counter, consistent: consistent && pairs === this.counter };
    }

    @query([], IDL.Nat64)
    size(): bigint {
        return this.store.len();
    }

    @update([IDL.Nat64], IDL.Null)
    fireIn(seconds: bigint): null {
        setTimer(Number(seconds), () => {
            this.timerFiredAt = time();
        });
        return null;
    }

    @query([], IDL.Opt(IDL.Nat64))
    timerFired(): [bigint] | [] {
        return this.timerFiredAt === undefined ? [] : [this.timerFiredAt];
    }

    @query([], IDL.Nat64)
    now(): bigint {
        return time();
    }

    @update([], IDL.Vec(IDL.Nat8))
    randomBytes(): Uint8Array {
        return crypto.getRandomValues(new Uint8Array(16));
    }

    @update([], IDL.Vec(IDL.Nat8))
    async rawRand(): Promise<Uint8Array> {
        return await call<undefined, Uint8Array>(Principal.fromText('aaaaa-aa'), 'raw_rand', {
            returnIdlType: IDL.Vec(IDL.Nat8),
        });
    }

    /** A management canister method, raw Candid in and out, called by this canister (a controller). */
    @update([IDL.Text, IDL.Vec(IDL.Nat8)], IDL.Vec(IDL.Nat8))
    async manage(method: string, arg: Uint8Array): Promise<Uint8Array> {
        return await call<Uint8Array, Uint8Array>(Principal.fromText('aaaaa-aa'), method, { args: arg, raw: true });
    }

    @update([IDL.Principal], IDL.Nat64)
    async incrementOther(other: Principal): Promise<bigint> {
        return await call<undefined, bigint>(other, 'increment', { returnIdlType: IDL.Nat64 });
    }

    @query([IDL.Nat64], IDL.Nat64)
    burn(iterations: bigint): bigint {
        let sum = 0;
        for (let i = 0; i < Number(iterations); i++) sum = (sum + i) % 1000003;
        return BigInt(sum);
    }

    @update([IDL.Vec(IDL.Nat8)], IDL.Null)
    certify(data: Uint8Array): null {
        certifiedDataSet(data);
        return null;
    }

    @query([], IDL.Opt(IDL.Vec(IDL.Nat8)))
    certificate(): [Uint8Array] | [] {
        const certificate = dataCertificate();
        return certificate === undefined ? [] : [certificate];
    }

    @query([], IDL.Principal)
    whoami(): Principal {
        return msgCaller();
    }

    @query([HttpRequest], HttpResponse)
    http_request(request: HttpRequest): HttpResponse {
        const path = request.url.split('?')[0];
        if (request.method === 'POST' || path === '/bump') return json(200, {}, true);
        if (path === '/count') return json(200, { count: Number(this.counter), url: request.url });
        if (path === '/certified')
            return json(200, { count: Number(this.counter), certified: dataCertificate() !== undefined });
        return json(404, { error: `no route ${path}` });
    }

    @update([HttpUpdateRequest], HttpResponse)
    http_request_update(request: HttpRequest): HttpResponse {
        this.counter += 1n;
        return json(200, { count: Number(this.counter), method: request.method });
    }
}
