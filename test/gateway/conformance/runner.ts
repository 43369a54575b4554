// Runs one conformance case on the gateway and, for `direct` cases, on the canister's own HTTP interface.
//
// It builds the case's data on the shared service (or a service of its own for `clock` cases),
// sends its request to both hosts and checks every answer against the case's expectation.
import { Principal } from '@dfinity/principal';

import type { Method } from '../../../contract/canister';
import { DIRECT_READ_WINDOW_SECONDS } from '../../../contract/http';
import {
    stackTemplate,
    startService,
    type StackTemplate,
    type TestResponse,
    type TestService,
} from '../../support/gateway';
import { canisterAnswer, directUrls, verifyAnswer } from '../../support/verify-response';
import {
    SHARED_START,
    START,
    type AdminStep,
    type AdvanceStep,
    type Case,
    type Expectation,
    type GameStep,
    type SendStep,
    type Step,
} from './harness';
import { EVERY_RESPONSE_HEADERS } from './answers';

const nsOf = (iso: string): bigint => BigInt(Date.parse(iso)) * 1_000_000n;

// ---- services -----------------------------------------------------------------------------------------

/**
 * The stack the cases run on (a test file's choice): a directory with shards, the gateway knowing
 * {canister_url} or not (GET /game then tells a game's own canister's URL), or the single canister.
 */
export interface Stack {
    shards?: number;
    canisterUrl?: boolean;
}
let stack: Stack = {};
export const useStack = (s: Stack): void => void (stack = s);

/** The service of the cases that keep to SHARED_ADVANCE_LIMITS, started on first use. */
let shared: Promise<TestService> | undefined;
export const sharedService = (): Promise<TestService> =>
    (shared ??= startService({ ...stack, replica: { startTime: nsOf(SHARED_START) } }));

/** Stops the shared service, if a case started it. */
export async function stopSharedService(): Promise<void> {
    if (shared !== undefined) await (await shared).stop();
}

// ---- placeholders -------------------------------------------------------------------------------------

type Vars = Map<string, unknown>;

const PLACEHOLDER = /\$\{([A-Z][A-Z0-9_]*)\}|\$([A-Z][A-Z0-9_]*)/g;
const WHOLE = /^(?:\$\{([A-Z][A-Z0-9_]*)\}|\$([A-Z][A-Z0-9_]*))$/;

function lookup(vars: Vars, name: string): unknown {
    if (!vars.has(name)) throw new Error(`placeholder $${name} has no value (does a setup step capture it?)`);
    return vars.get(name);
}

function resolveString(vars: Vars, s: string): unknown {
    const whole = WHOLE.exec(s);
    if (whole !== null) return lookup(vars, whole[1] ?? whole[2]);
    return s.replace(PLACEHOLDER, (_, braced: string | undefined, plain: string | undefined) =>
        String(lookup(vars, braced ?? plain!)),
    );
}

function isPlain(value: object): boolean {
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
}

const MATCHER = Symbol.for('jest.asymmetricMatcher');

/** Replaces placeholders in strings, arrays, plain objects and the samples of object/array-containing matchers. */
function resolve<T>(vars: Vars, value: T): T {
    if (typeof value === 'string') return resolveString(vars, value) as T;
    if (Array.isArray(value)) return value.map((v) => resolve(vars, v)) as T;
    if (value === null || typeof value !== 'object') return value;
    if (isPlain(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(vars, v)])) as T;
    const m = value as { $$typeof?: symbol; sample?: unknown; inverse?: boolean; toString(): string };
    if (m.$$typeof === MATCHER && m.inverse === false) {
        if (m.toString() === 'ObjectContaining') return expect.objectContaining(resolve(vars, m.sample as object)) as T;
        if (m.toString() === 'ArrayContaining')
            return expect.arrayContaining(resolve(vars, m.sample as unknown[])) as T;
    }
    return value;
}

function at(value: unknown, path: string): unknown {
    let v = value;
    for (const part of path.split('.'))
        v = v === null || v === undefined ? undefined : (v as Record<string, unknown>)[part];
    return v;
}

function capture(vars: Vars, into: Record<string, string> | undefined, from: unknown): void {
    for (const [name, path] of Object.entries(into ?? {})) {
        const value = at(from, path);
        if (value === undefined) throw new Error(`capture ${name}: nothing at ${path}`);
        vars.set(name, value);
    }
}

/** The periods of the replica clock now: UTC day and week (from Monday) starts in ns, and the date. */
function clockVars(service: TestService, vars: Vars): void {
    const now = new Date(Number(service.replica.time() / 1_000_000n));
    const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const week = day - ((now.getUTCDay() + 6) % 7) * 86_400_000;
    vars.set('DAY_START', day * 1e6);
    vars.set('WEEK_START', week * 1e6);
    vars.set('TODAY', new Date(day).toISOString().slice(0, 10));
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
        if (value instanceof RegExp)
            expect({ header: name, value: actual }).toEqual({ header: name, value: expect.stringMatching(value) });
        else expect({ header: name, value: actual }).toEqual({ header: name, value });
    }
}

/** Status and body together, so a failure shows both. */
function checkAnswer(r: TestResponse, expected: Expectation): void {
    expect({ status: r.status, body: r.body }).toEqual({ status: expected.status, body: expected.body });
}

/** A direct canister answer: the expected one, with its headers, and the gateway's JSON. */
function checkDirect(r: TestResponse, expected: Expectation, gateway: TestResponse): void {
    if (r.body === undefined) throw new Error(`not JSON: ${describeAnswer(r)}`);
    checkAnswer(r, expected);
    expect({ header: 'access-control-allow-origin', value: r.headers.get('access-control-allow-origin') }).toEqual({
        header: 'access-control-allow-origin',
        value: '*',
    });
    if (r.status === 200)
        expect({ header: 'cache-control', value: r.headers.get('cache-control') }).toEqual({
            header: 'cache-control',
            value: 'public, max-age=30',
        });
    // Identical JSON on both hosts.
    expect({ status: r.status, body: r.body }).toEqual({ status: gateway.status, body: gateway.body });
}

/**
 * The direct answer again (now served from the certified snapshot), verified as an IC HTTP
 * gateway verifies it: the certified status and JSON, or, for a path the canister leaves
 * uncertified on purpose (errors, around-me), the answer as it came with its certified skip.
 */
async function verifiedDirect(
    service: TestService,
    canisterId: Principal,
    path: string,
): Promise<{ status: number; body: unknown }> {
    const urls = directUrls(service.replica, canisterId, path);
    const answer = await canisterAnswer(urls.seen, await fetch(urls.fetch));
    const parsed = (bytes: Uint8Array): unknown => JSON.parse(new TextDecoder().decode(bytes));
    // No IC-Certificate: the query asked for the upgrade, and this answer is the update call's,
    // which the IC certifies by consensus (only reads whose query string the canister cannot tie
    // to one certified answer, e.g. `limit[]=`).
    if (!answer.headers.some(([name]) => name === 'ic-certificate'))
        return { status: answer.status, body: parsed(answer.body) };
    let verified: ReturnType<typeof verifyAnswer>;
    try {
        verified = verifyAnswer(service.replica, canisterId, answer);
    } catch (e) {
        return { status: answer.status, body: `verification failed: ${String(e)}` };
    }
    const body = verified === undefined ? answer.body : verified.body;
    return { status: verified?.statusCode ?? answer.status, body: parsed(body) };
}

/** Runs `check`; a failure is kept with its label instead of thrown. */
function collect(failures: string[], label: string, check: () => void): void {
    try {
        check();
    } catch (e) {
        failures.push(`${label}\n${e instanceof Error ? e.message : String(e)}`);
    }
}

// ---- steps --------------------------------------------------------------------------------------------

const isGame = (s: Step): s is GameStep => 'game' in s;
const isAdmin = (s: Step): s is AdminStep => 'admin' in s;
export const isAdvance = (s: Step): s is AdvanceStep => 'advance' in s;

const ANY_SUCCESS: Expectation = { status: 200, body: { ok: true, data: expect.anything() } };

function stepLabel(step: Step): string {
    if (isGame(step)) return `register the game $${step.game}`;
    if (isAdmin(step)) return `${step.admin} ${JSON.stringify(step.request)}`;
    if (isAdvance(step)) return `advance the clock ${step.advance} s`;
    return `${step.send.method} ${step.send.path} ${JSON.stringify(step.send.body ?? step.send.raw ?? '')}`;
}

async function runStep(service: TestService, vars: Vars, step: Step, mainGame: string): Promise<void> {
    if (isGame(step)) {
        const id = `${mainGame}-${step.game.toLowerCase()}`;
        vars.set(step.game, id);
        vars.set(step.key, await service.game(id));
    } else if (isAdmin(step)) {
        const reply = await service.canister.ok(step.admin as Method, resolve(vars, step.request) as never);
        capture(vars, step.capture, reply);
    } else if (isAdvance(step)) {
        await service.replica.advanceTime(step.advance * 1000);
        await service.canister.agent.syncTime(service.canisterId);
    } else {
        const req = resolve(vars, (step as SendStep).send);
        const r = await service.request(req.method, req.path, {
            headers: req.headers ?? {},
            body: req.body,
            raw: req.raw,
        });
        checkAnswer(r, resolve(vars, step.expect ?? ANY_SUCCESS));
        capture(vars, step.capture, r.body);
    }
}

/** The stack `clock` cases start from: installed once at START, copied for each case (its clock its own). */
let clockTemplate: Promise<StackTemplate> | undefined;

export async function runCase(c: Case, index: number): Promise<void> {
    const own = c.clock
        ? await startService({
              ...stack,
              template: await (clockTemplate ??= stackTemplate({ ...stack, replica: { startTime: nsOf(START) } })),
          })
        : undefined;
    try {
        const service = own ?? (await sharedService());
        const vars: Vars = new Map();
        const gameId = `conf-${index}`;
        vars.set('GAME', gameId);
        vars.set('KEY', await service.game(gameId));
        vars.set('T', `_${index.toString(36)}`);
        // GET /game's canisterUrl: the game's own canister in the form of {canister_url}, when the
        // gateway knows it and the game lives elsewhere than the directory (absent otherwise).
        const holder = (await service.canisterOf(gameId)).toText();
        vars.set(
            'CANISTER_URL',
            stack.canisterUrl === true && holder !== service.canisterId.toText()
                ? `${service.replica.url}/?canisterId=${holder}`
                : undefined,
        );
        clockVars(service, vars);

        for (const [i, step] of (c.setup ?? []).entries()) {
            try {
                await runStep(service, vars, step, gameId);
            } catch (e) {
                throw new Error(
                    `setup step ${i + 1} (${stepLabel(step)}) failed:\n${e instanceof Error ? e.message : String(e)}`,
                );
            }
        }

        const req = resolve(vars, c.request);
        const expected = resolve(vars, c.expect);
        // Direct reads come from the canister's certified snapshot: let its render timer run first.
        if (c.direct) {
            await service.replica.advanceTime(DIRECT_READ_WINDOW_SECONDS * 1000);
            await service.canister.agent.syncTime(service.canisterId);
        }
        const gateway = await service.request(req.method, req.path, {
            headers: req.headers ?? {},
            body: req.body,
            raw: req.raw,
        });
        // Direct reads go to {canister_url} as a client does, following the directory's redirect
        // to the canister that holds the game; that canister's certificate is then verified.
        const direct = c.direct ? await service.direct(req.path) : undefined;
        const certified = c.direct ? await verifiedDirect(service, Principal.fromText(holder), req.path) : undefined;

        const failures: string[] = [];
        collect(failures, `[gateway] ${req.method} ${req.path}`, () => {
            checkEnvelope(gateway, req.method);
            checkAnswer(gateway, expected);
            checkHeaders(gateway, expected.headers);
        });
        if (direct !== undefined)
            collect(failures, `[canister] GET ${req.path}`, () => checkDirect(direct, expected, gateway));
        if (certified !== undefined)
            collect(failures, `[canister, verified] GET ${req.path}`, () =>
                expect({ status: certified.status, body: certified.body }).toEqual({
                    status: direct!.status,
                    body: direct!.body,
                }),
            );
        if (failures.length > 0) throw new Error(failures.join('\n\n'));
    } finally {
        await own?.stop();
    }
}
