// The client address the canister's sign-in limits count by: IPv4 as is, IPv4-mapped IPv6 as
// IPv4, other IPv6 by its /64 prefix (one home or host gets a /64: rotating addresses inside it
// is one client), anything else 'unknown'; and whether it names someone on the internet.
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** The 8 groups of a valid IPv6 address (with or without `::` and a dotted IPv4 tail). */
function ipv6Groups(address: string): number[] {
    let text = address;
    const lastColon = text.lastIndexOf(':');
    const tail = text.slice(lastColon + 1);
    if (tail.includes('.')) {
        const [a, b, c, d] = tail.split('.').map(Number);
        text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
    }
    const [head, rest] = text.split('::');
    const left = head === '' ? [] : head.split(':');
    const right = rest === undefined || rest === '' ? [] : rest.split(':');
    const zeros = rest === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
    return [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
}

export function clientAddress(ip: string | undefined): string {
    if (ip === undefined) return 'unknown';
    const address = ip.split('%')[0]; // a zone id names the interface, not the client
    if (isIPv4(address)) return address;
    if (!isIPv6(address)) return 'unknown';
    const g = ipv6Groups(address);
    if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff)
        return `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
    return `${g
        .slice(0, 4)
        .map((x) => x.toString(16))
        .join(':')}::/64`;
}

/** Loopback, private, shared (CGNAT), link-local and unique-local ranges: no one's own address. */
const LOCAL = new BlockList();
for (const [net, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
] as const)
    LOCAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
] as const)
    LOCAL.addSubnet(net, prefix, 'ipv6');

/**
 * The client address when it names someone on the internet; undefined for a local or private
 * one: that is a proxy in front (TRUST_PROXY unset) or a LAN, where every player would be one
 * client and a per-client cap a cap on everyone.
 */
export function publicClientAddress(ip: string | undefined): string | undefined {
    const address = clientAddress(ip);
    if (address === 'unknown') return undefined;
    if (isIPv4(address)) return LOCAL.check(address, 'ipv4') ? undefined : address;
    return LOCAL.check(address.replace('::/64', '::'), 'ipv6') ? undefined : address;
}
