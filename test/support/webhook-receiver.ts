// What webhook tests deliver to: a real HTTP receiver on 127.0.0.1 that records each request
// (and each connection) and answers as the test says, and a real DNS server (dns2) whose
// answers a test changes (a name public at first and private later: DNS rebinding).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import dns2 from 'dns2';

export interface Received {
    headers: IncomingMessage['headers'];
    body: string;
    /** The parsed body. */
    event: any;
}

/** How the receiver answers one request: a status, or a handler of its own (hold it, redirect, a huge body). */
export type Answer = number | ((req: IncomingMessage, res: ServerResponse) => void);

export interface Receiver {
    url: string;
    port: number;
    /** Requests received, in order. */
    received: Received[];
    /** TCP connections accepted (a refused address must make none). */
    connections: number;
    /** How the next requests are answered (default 200). */
    answer: Answer;
    /** Resolves when `n` requests have been received. */
    waitFor(n: number): Promise<Received[]>;
    close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
    const waiters: Array<{ n: number; resolve: (r: Received[]) => void }> = [];
    const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            let event: unknown;
            try {
                event = JSON.parse(body);
            } catch {
                event = undefined;
            }
            receiver.received.push({ headers: req.headers, body, event });
            for (const w of waiters.splice(0))
                if (receiver.received.length >= w.n) w.resolve(receiver.received);
                else waiters.push(w);
            const answer = receiver.answer;
            if (typeof answer === 'function') answer(req, res);
            else res.writeHead(answer, { 'Content-Type': 'text/plain' }).end('ok');
        });
    });
    server.on('connection', () => (receiver.connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const receiver: Receiver = {
        url: `http://127.0.0.1:${port}/hook`,
        port,
        received: [],
        connections: 0,
        answer: 200,
        waitFor: (n) =>
            new Promise((resolve) => {
                if (receiver.received.length >= n) resolve(receiver.received);
                else waiters.push({ n, resolve });
            }),
        close: () =>
            new Promise((resolve) => {
                server.closeAllConnections();
                server.close(() => resolve());
            }),
    };
    return receiver;
}

export interface TestDns {
    /** `host:port` for WEBHOOK_DNS_SERVERS. */
    server: string;
    /** The A/AAAA answers by name (a test changes them). */
    names: Map<string, string[]>;
    /** Queries asked, by name. */
    queries: string[];
    close(): Promise<void>;
}

export async function startDns(names: Record<string, string[]> = {}): Promise<TestDns> {
    const { Packet } = dns2;
    const dns: TestDns = { server: '', names: new Map(Object.entries(names)), queries: [], close: async () => {} };
    const server = dns2.createServer({
        udp: true,
        handle: (request, send) => {
            const response = Packet.createResponseFromRequest(request);
            const question = request.questions[0]!;
            dns.queries.push(question.name);
            const addresses = dns.names.get(question.name.toLowerCase());
            if (addresses === undefined) response.header.rcode = 3; // NXDOMAIN
            for (const address of addresses ?? []) {
                const v6 = address.includes(':');
                if ((question.type === Packet.TYPE.AAAA) !== v6) continue;
                response.answers.push({
                    name: question.name,
                    type: v6 ? Packet.TYPE.AAAA : Packet.TYPE.A,
                    class: Packet.CLASS.IN,
                    ttl: 0,
                    address,
                } as unknown as dns2.Packet.Resource);
            }
            send(response);
        },
    });
    await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    const { udp } = server.addresses() as { udp: AddressInfo };
    dns.server = `127.0.0.1:${udp.port}`;
    dns.close = () => server.close();
    return dns;
}
