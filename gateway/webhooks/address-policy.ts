// Which addresses a webhook may reach (no SSRF): only public unicast ones, unless the operator
// allows ranges (WEBHOOK_ALLOW); http:// only to allowed ranges. Checked on the resolved address
// at every delivery, and on the URL where a developer saves it.
import ipaddr from 'ipaddr.js';

import { checkWebhookUrl } from '../../contract/webhooks';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/** Ranges the operator allows beyond public addresses (empty: public https only). */
export interface AddressPolicy {
    allow: Range[];
    /** The setting as written, for messages. */
    text: string;
}

/** Names WEBHOOK_ALLOW accepts besides CIDRs. */
const NAMED_RANGES: Record<string, string[]> = {
    loopback: ['127.0.0.0/8', '::1/128'],
    private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
    'link-local': ['169.254.0.0/16', 'fe80::/10'],
    cgnat: ['100.64.0.0/10'],
};

/** Public https only. */
export const STRICT_POLICY: AddressPolicy = { allow: [], text: '' };

/**
 * Parses WEBHOOK_ALLOW: comma-separated CIDRs (`10.1.0.0/16`), single addresses (`::1`) or names
 * (loopback, private, link-local, cgnat). Throws on anything else (a configuration error).
 */
export function parseAllow(text: string | undefined): AddressPolicy {
    const allow: Range[] = [];
    for (const raw of (text ?? '').split(',')) {
        const item = raw.trim();
        if (item === '') continue;
        const cidrs = NAMED_RANGES[item.toLowerCase()] ?? [item];
        for (const cidr of cidrs) {
            try {
                allow.push(cidr.includes('/') ? ipaddr.parseCIDR(cidr) : wholeAddress(ipaddr.parse(cidr)));
            } catch {
                throw new Error(
                    `WEBHOOK_ALLOW: '${item}' is not a CIDR (10.0.0.0/8), an address or one of ${Object.keys(NAMED_RANGES).join(', ')}`,
                );
            }
        }
    }
    return { allow, text: (text ?? '').trim() };
}

const wholeAddress = (a: Address): Range => [a, a.kind() === 'ipv4' ? 32 : 128];

/** The IPv4 address an IPv6 form carries (mapped, translated, NAT64, 6to4), if any. */
function embeddedIPv4(a: ipaddr.IPv6): ipaddr.IPv4 | undefined {
    const range = a.range();
    // `::` and `::1` lie inside the IPv4-compatible ::/96 yet are IPv6's own unspecified and loopback.
    if (range === 'unspecified' || range === 'loopback') return undefined;
    const p = a.parts;
    const fromLow = (): ipaddr.IPv4 => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
    if (range === 'ipv4Mapped' || range === 'rfc6145') return fromLow();
    // 64:ff9b::/96 (NAT64 well-known prefix): the last 32 bits.
    if (range === 'rfc6052' && p[2] === 0) return fromLow();
    // IPv4-compatible ::a.b.c.d (deprecated): the last 32 bits.
    if (p.slice(0, 6).every((x) => x === 0)) return fromLow();
    if (range === '6to4') return new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]);
    return undefined;
}

function allowed(a: Address, policy: AddressPolicy): boolean {
    return policy.allow.some(([net, bits]) => net.kind() === a.kind() && a.match(net, bits));
}

/** What kind of address this is in words (for messages), or undefined when it is public unicast. */
function nonPublic(a: Address): string | undefined {
    if (a.kind() === 'ipv4') {
        const range = a.range();
        return range === 'unicast' ? undefined : range;
    }
    const v6 = a as ipaddr.IPv6;
    const range = v6.range();
    // Global unicast is 2000::/3; teredo, benchmarking, documentation, ORCHID... inside it are not.
    if (range === 'unicast' && v6.match(ipaddr.IPv6.parse('2000::'), 3)) return undefined;
    return range === 'unicast' ? 'reserved' : range;
}

/**
 * Why a connection to `address` (an IP literal) for a URL of `protocol` is refused, or
 * undefined when it may go: a public unicast address over https, or an address in the operator's
 * allowed ranges (http or https). IPv6 forms that carry an IPv4 address are judged by it.
 */
export function addressProblem(address: string, protocol: string, policy: AddressPolicy): string | undefined {
    let a: Address;
    try {
        a = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
    } catch {
        return `${address} is not an IP address`;
    }
    const inner = a.kind() === 'ipv6' ? embeddedIPv4(a as ipaddr.IPv6) : undefined;
    if (allowed(a, policy) || (inner !== undefined && allowed(inner, policy))) return undefined;
    const why = inner !== undefined ? nonPublic(inner) : nonPublic(a);
    if (why !== undefined)
        return `address ${a.toString()} is ${why}: webhooks may reach public addresses only (the operator allows more with WEBHOOK_ALLOW)`;
    if (protocol !== 'https:')
        return `http:// may reach only the ranges the operator allows (WEBHOOK_ALLOW); use https://`;
    return undefined;
}

/** An IP-literal host's address (URL keeps IPv6 in brackets), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
    const bare = hostname.replace(/^\[|\]$/g, '');
    return ipaddr.isValid(bare) ? bare : undefined;
}

/**
 * The check where a URL is saved (the dashboard API): its shape, https unless the operator allows
 * some ranges, and an IP-literal host judged by the policy. A name is judged when it is resolved,
 * at every delivery. Answers `Invalid url: ...` or undefined.
 */
export function urlProblem(value: unknown, policy: AddressPolicy): string | undefined {
    const shape = checkWebhookUrl(value);
    if (shape !== undefined) return shape;
    const url = new URL(value as string);
    if (url.protocol !== 'https:' && policy.allow.length === 0) return 'Invalid url: must be https://';
    const literal = literalAddress(url.hostname);
    if (literal !== undefined) {
        const problem = addressProblem(literal, url.protocol, policy);
        if (problem !== undefined) return `Invalid url: ${problem}`;
    }
    return undefined;
}
