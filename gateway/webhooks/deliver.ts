// One webhook delivery: a signed JSON POST of one event to an endpoint, connecting only to an
// address the policy allows (checked after DNS, on the very address connected to: no rebinding),
// no redirects, bounded in time and in the answer read. Returns the attempt; never throws.
import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';

import type { GameEvent } from '../../contract/events';
import type { Nanoseconds } from '../../contract/schemas';
import { WEBHOOK_HEADERS, type DeliveryAttempt, type TestEvent } from '../../contract/webhooks';
import { addressProblem, literalAddress, type AddressPolicy } from './address-policy';
import { signatureHeader } from './signature';

export interface DeliveryOptions {
    policy: AddressPolicy;
    /** DNS servers to resolve endpoint names with (WEBHOOK_DNS_SERVERS, `host` or `host:port`); default: the system's resolver. */
    dnsServers?: string[];
    /** Connecting (TCP and TLS) within this (default 5 s). */
    connectTimeoutMs?: number;
    /** The whole delivery, answer included, within this (default 10 s). */
    timeoutMs?: number;
    /** Bytes of the answer read at most (default 64 KiB); the rest is dropped with the connection. */
    maxAnswerBytes?: number;
    /** Unix seconds for the signature (default: this machine's clock, which receivers compare with theirs). */
    nowSeconds?: () => number;
    /**
     * The gateway's own log (default: stderr): which address a name resolved to when the policy
     * refused it. The attempt the developer sees never says (an internal resolver's answers stay inside).
     */
    log?: (line: string) => void;
}

export const DELIVERY_DEFAULTS = { connectTimeoutMs: 5_000, timeoutMs: 10_000, maxAnswerBytes: 64 * 1024 } as const;
export const USER_AGENT = 'GameLeaderboard-Webhooks/1';

/** What a developer reads when a name resolves only to refused addresses: neither the addresses nor their range. */
export const NAME_REFUSED =
    'the address it resolves to is not allowed: webhooks may reach public addresses only (the operator allows more with WEBHOOK_ALLOW)';

/** A refusal of the address policy (the delivery's error says why). */
class RefusedAddress extends Error {
    code = 'EWEBHOOKADDRESS';
}

/** Resolves names with the operator's DNS servers, or the system's resolver. */
function resolverOf(servers: string[] | undefined): (host: string) => Promise<string[]> {
    if (servers === undefined || servers.length === 0) {
        return async (host) => (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    }
    const resolver = new dns.promises.Resolver({ timeout: 2_000, tries: 2 });
    resolver.setServers(servers);
    return async (host) => {
        const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
        const found = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
        if (found.length === 0) {
            const e = v4.status === 'rejected' ? v4.reason : v6.status === 'rejected' ? v6.reason : undefined;
            throw Object.assign(new Error(`${host} does not resolve`), {
                code: (e as { code?: string })?.code ?? 'ENOTFOUND',
            });
        }
        return found;
    };
}

/** Node's `lookup` hook: resolves, keeps only the addresses the policy allows, and hands Node those (it connects to them, never resolving again). */
function checkedLookup(protocol: string, o: DeliveryOptions): LookupFunction {
    const resolve = resolverOf(o.dnsServers);
    return (hostname, options, callback) => {
        resolve(hostname).then(
            (addresses) => {
                const family = typeof options === 'object' ? options.family : options;
                const wanted = addresses.filter((a) => !family || (family === 4) === !a.includes(':'));
                const ok = wanted.filter((a) => addressProblem(a, protocol, o.policy) === undefined);
                if (ok.length === 0) {
                    if (wanted.length === 0) {
                        callback(new RefusedAddress(`${hostname} has no address`), '', 4);
                        return;
                    }
                    (o.log ?? console.error)(
                        `gateway: webhook delivery: ${hostname}: ${addressProblem(wanted[0]!, protocol, o.policy)!}`,
                    );
                    callback(new RefusedAddress(`${hostname}: ${NAME_REFUSED}`), '', 4);
                    return;
                }
                const all = ok.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
                if (typeof options === 'object' && options.all) callback(null, all);
                else callback(null, all[0]!.address, all[0]!.family);
            },
            (e: NodeJS.ErrnoException) =>
                callback(
                    Object.assign(new Error(`${hostname} does not resolve (${e.code ?? e.message})`), { code: e.code }),
                    '',
                    4,
                ),
        );
    };
}

/** Delivers `event` to `url` signed under `secret`: the attempt (status, error in words, latency). */
export async function deliverEvent(
    url: string,
    secret: string,
    event: GameEvent | TestEvent,
    o: DeliveryOptions,
): Promise<DeliveryAttempt> {
    const started = performance.now();
    const attempt = (fields: { status?: number; error?: string }): DeliveryAttempt => ({
        at: (Date.now() * 1_000_000) as Nanoseconds,
        eventId: event.id,
        kind: event.kind,
        ...fields,
        latencyMs: Math.round(performance.now() - started),
    });
    try {
        return attempt(await post(url, secret, event, o));
    } catch (e) {
        return attempt({ error: `delivery failed: ${e instanceof Error ? e.message : String(e)}` });
    }
}

function post(
    url: string,
    secret: string,
    event: GameEvent | TestEvent,
    o: DeliveryOptions,
): Promise<{ status?: number; error?: string }> {
    let target: URL;
    try {
        target = new URL(url);
    } catch {
        return Promise.resolve({ error: 'the URL is not valid' });
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:')
        return Promise.resolve({ error: 'the URL is not http(s)' });
    const literal = literalAddress(target.hostname);
    if (literal !== undefined) {
        // Node does not call `lookup` for an IP literal: the address is checked here.
        const problem = addressProblem(literal, target.protocol, o.policy);
        if (problem !== undefined) return Promise.resolve({ error: problem });
    }
    const body = JSON.stringify(event);
    const timestamp = Math.floor(o.nowSeconds?.() ?? Date.now() / 1000);
    const connectMs = o.connectTimeoutMs ?? DELIVERY_DEFAULTS.connectTimeoutMs;
    const totalMs = o.timeoutMs ?? DELIVERY_DEFAULTS.timeoutMs;
    const cap = o.maxAnswerBytes ?? DELIVERY_DEFAULTS.maxAnswerBytes;
    const request = (target.protocol === 'https:' ? https : http).request;

    return new Promise((resolve) => {
        let settled = false;
        /** Decided by the status line; the answer's body is then read (up to the cap) only to be dropped. */
        let outcome: { status?: number; error?: string } | undefined;
        const finish = (r: { status?: number; error?: string }): void => {
            if (settled) return;
            settled = true;
            clearTimeout(whole);
            clearTimeout(connecting);
            req.destroy();
            resolve(r);
        };
        const req = request(target, {
            method: 'POST',
            agent: false,
            lookup: checkedLookup(target.protocol, o),
            headers: {
                'Content-Type': 'application/json',
                'Content-Length': Buffer.byteLength(body),
                'User-Agent': USER_AGENT,
                [WEBHOOK_HEADERS.signature]: signatureHeader(secret, body, timestamp),
                [WEBHOOK_HEADERS.eventId]: event.id,
                [WEBHOOK_HEADERS.eventKind]: event.kind,
                Connection: 'close',
            },
        });
        const whole = setTimeout(() => finish(outcome ?? { error: `no answer within ${totalMs / 1000} s` }), totalMs);
        const connecting = setTimeout(
            () => finish({ error: `could not connect within ${connectMs / 1000} s` }),
            connectMs,
        );
        req.on('socket', (socket) => {
            socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connecting));
        });
        req.on('error', (e: NodeJS.ErrnoException) =>
            finish({ error: e instanceof RefusedAddress ? e.message : `${e.code ?? 'error'}: ${e.message}` }),
        );
        req.on('response', (res) => {
            const status = res.statusCode ?? 0;
            outcome =
                status >= 200 && status < 300
                    ? { status }
                    : status >= 300 && status < 400
                      ? { status, error: 'redirects are not followed' }
                      : { status, error: `the endpoint answered ${status}` };
            let read = 0;
            res.on('data', (chunk: Buffer) => {
                read += chunk.length;
                if (read > cap) finish(outcome!); // the rest is dropped with the connection
            });
            res.on('end', () => finish(outcome!));
            res.on('error', () => finish(outcome!));
            res.on('close', () => finish(outcome!));
        });
        req.end(body);
    });
}
