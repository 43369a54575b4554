// Runs the HTTP contract's conformance cases (./conformance/cases.ts) in order against one
// service (replica + canister + gateway): every case against the gateway, and every `direct`
// case also against the canister's own HTTP path. One jest test per case (and per direct read),
// named after the rule it checks; known gaps run too and are named [KNOWN GAP].
import type { Method } from '../../contract/canister';
import { startService, type TestResponse, type TestService } from '../support/gateway';
import { CASES, EVERY_RESPONSE_HEADERS, GAMES, KNOWN_GAPS, START, type AdminStep, type AdvanceStep, type Case, type Step } from './conformance/cases';

let service: TestService;
const vars = new Map<string, unknown>();
/** The gateway's answer to each direct case, which the canister's answer must equal. */
const gatewayAnswers = new Map<Case, TestResponse>();

beforeAll(async () => {
    service = await startService({ replica: { startTime: BigInt(Date.parse(START)) * 1_000_000n } });
    for (const g of GAMES) {
        vars.set(g.game, g.id);
        vars.set(g.key, await service.game(g.id));
    }
}, 120_000);

afterAll(async () => {
    await service?.stop();
});

// ---- placeholders -------------------------------------------------------------------------------------

const PLACEHOLDER = /\$([A-Z][A-Z0-9_]*)/g;

function lookup(name: string): unknown {
    if (!vars.has(name)) throw new Error(`placeholder $${name} has no value (did the step that captures it fail?)`);
    return vars.get(name);
}

function resolveString(s: string): unknown {
    const whole = /^\$([A-Z][A-Z0-9_]*)$/.exec(s);
    if (whole !== null) return lookup(whole[1]);
    return s.replace(PLACEHOLDER, (_, name: string) => String(lookup(name)));
}

function isPlain(value: object): boolean {
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
}

/** Replaces placeholders in strings, arrays and plain objects; matchers and other values stay. */
function resolve<T>(value: T): T {
    if (typeof value === 'string') return resolveString(value) as T;
    if (Array.isArray(value)) return value.map(resolve) as T;
    if (value !== null && typeof value === 'object' && isPlain(value)) {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)])) as T;
    }
    return value;
}

function at(value: unknown, path: string): unknown {
    let v = value;
    for (const part of path.split('.')) v = v === null || v === undefined ? undefined : (v as Record<string, unknown>)[part];
    return v;
}

function capture(into: Record<string, string> | undefined, from: unknown): void {
    for (const [name, path] of Object.entries(into ?? {})) {
        const value = at(from, path);
        if (value === undefined) throw new Error(`capture ${name}: nothing at ${path}`);
        vars.set(name, value);
    }
}

// ---- checks -------------------------------------------------------------------------------------------

function describeAnswer(r: TestResponse): string {
    return `${r.status} ${r.text.length > 600 ? `${r.text.slice(0, 600)}...` : r.text}`;
}

/** What every gateway answer must be: JSON envelope, 200 only for success, version and CORS headers. */
function checkEnvelope(r: TestResponse, method: string): void {
    expect(r.headers.get('content-type') ?? '').toMatch(/application\/json/);
    if (r.body === undefined) throw new Error(`not JSON: ${describeAnswer(r)}`);
    for (const [name, value] of Object.entries(EVERY_RESPONSE_HEADERS)) {
        expect({ header: name, value: r.headers.get(name) }).toEqual({ header: name, value });
    }
    if (method === 'OPTIONS') return;
    expect(typeof r.body.ok).toBe('boolean');
    if (r.body.ok === true) {
        expect(r.status).toBe(200);
        expect(r.body).toHaveProperty('data');
    } else {
        expect(r.status).not.toBe(200);
        expect(typeof r.body.error).toBe('string');
    }
}

function checkHeaders(r: TestResponse, expected: Record<string, string | RegExp> | undefined): void {
    for (const [name, value] of Object.entries(expected ?? {})) {
        const actual = r.headers.get(name);
        if (value instanceof RegExp) expect({ header: name, value: actual }).toEqual({ header: name, value: expect.stringMatching(value) });
        else expect({ header: name, value: actual }).toEqual({ header: name, value });
    }
}

function checkAnswer(r: TestResponse, c: Case): void {
    const expected = resolve(c.expect.body);
    // Status and body together, so a failure shows both.
    expect({ status: r.status, body: r.body }).toEqual({ status: c.expect.status, body: expected });
}

// ---- steps --------------------------------------------------------------------------------------------

const isAdvance = (s: Step): s is AdvanceStep => 'advance' in s;
const isAdmin = (s: Step): s is AdminStep => 'admin' in s;

async function runCase(c: Case): Promise<void> {
    const req = resolve(c.request);
    const r = await service.request(req.method, req.path, { headers: req.headers ?? {}, body: req.body, raw: req.raw });
    if (c.direct) gatewayAnswers.set(c, r);
    checkEnvelope(r, req.method);
    checkAnswer(r, c);
    checkHeaders(r, c.expect.headers);
    capture(c.capture, r.body);
}

async function runDirect(c: Case): Promise<void> {
    const path = resolve(c.request.path);
    const r = await service.direct(path);
    if (r.body === undefined) throw new Error(`not JSON: ${describeAnswer(r)}`);
    checkAnswer(r, c);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    if (r.status === 200) expect(r.headers.get('cache-control')).toBe('public, max-age=30');
    // Identical JSON on both hosts (spec: direct canister reads).
    const gateway = gatewayAnswers.get(c);
    if (gateway === undefined) throw new Error('the gateway case did not run');
    expect({ status: r.status, body: r.body }).toEqual({ status: gateway.status, body: gateway.body });
    capture(c.capture, r.body);
}

async function runAdvance(step: AdvanceStep): Promise<void> {
    await service.replica.advanceTime(step.advance * 1000);
    await service.canister.agent.syncTime(service.canisterId);
}

async function runAdmin(step: AdminStep): Promise<void> {
    const result = await service.canister.ok(step.admin as Method, resolve(step.request) as never);
    capture(step.capture, result);
}

const gaps = new Set(KNOWN_GAPS.map((g) => g.name));
const title = (name: string): string => (gaps.has(name) ? `[KNOWN GAP] ${name}` : name);

CASES.forEach((step, i) => {
    const n = String(i + 1).padStart(3, '0');
    if (isAdvance(step)) {
        test(`${n} (step) ${step.name}`, () => runAdvance(step));
    } else if (isAdmin(step)) {
        test(`${n} (step) ${step.name}`, () => runAdmin(step));
    } else {
        test(`${n} ${title(step.name)}`, () => runCase(step));
        if (step.direct) test(`${n} [canister] ${title(step.name)}`, () => runDirect(step));
    }
});

test('every known gap names a case, and case names are unique', () => {
    const names = CASES.map((s) => s.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(KNOWN_GAPS.map((g) => g.name).filter((n) => !names.includes(n))).toEqual([]);
});
