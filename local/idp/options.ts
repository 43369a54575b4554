// The built-in OpenID provider's options: plain data (they cross into its worker thread), and
// importing this file loads nothing ESM-only.

export interface IdentityProviderClient {
    clientId: string;
    /** With a secret the client authenticates at the token endpoint (client_secret_basic or _post); without one it is public (auth method none). */
    clientSecret?: string;
    redirectUris: string[];
}

export interface IdentityProviderOptions {
    /** The service's data directory; the provider keeps its state in `<dataDir>/idp/`. */
    dataDir: string;
    /** The interface to listen on; default 127.0.0.1. */
    host?: string;
    /** 0 picks a free port. */
    port: number;
    /** The public issuer URL; default http://<host>:<port> (with the port actually bound). */
    issuer?: string;
    /**
     * Behind a proxy: client addresses come from X-Forwarded-For (failed sign-ins are throttled
     * per client). Default: when `issuer` is set (a public issuer means a proxy in front).
     */
    trustProxy?: boolean;
    clients: IdentityProviderClient[];
}

export interface RunningIdentityProvider {
    /** The issuer identifier, as in the ID tokens and the discovery document. */
    issuer: string;
    /** Where the server listens, e.g. http://127.0.0.1:41234. */
    url: string;
    close(): Promise<void>;
}
