import https from 'node:https';
/** How the client decides to trust the server. Neither: the system's certificate authorities. */
export interface TlsTrust {
    /** PEM certificate(s) to trust instead of the system's authorities (the daemon's tls-cert.pem). */
    ca?: string | Buffer;
    /**
     * The SHA-256 fingerprint of the one certificate to accept (hex, colons optional). The
     * certificate's issuer and names are then not checked: its exact bytes are the identity.
     */
    fingerprint?: string;
}
/** A SHA-256 fingerprint as Node and `smm daemon` print it: upper-case hex pairs joined by colons. */
export declare function normalizeFingerprint(input: string): string | undefined;
/** Whether a TLS error code means "the certificate is not trusted" rather than "nobody answered". */
export declare function isCertificateError(code: unknown): boolean;
/** The HTTPS agent for a trust setting; keeps connections alive between calls. */
export declare function createAgent(trust: TlsTrust, timeoutMs?: number): https.Agent;
/** What a server's certificate says about itself, before deciding to trust it. */
export interface CertificateProbe {
    fingerprint: string;
    subject: string;
    validTo: string;
    /** Whether the certificate is trusted by the given authorities (or the system's) for this host. */
    trusted: boolean;
    /** Why not, as OpenSSL puts it (DEPTH_ZERO_SELF_SIGNED_CERT, say). */
    reason?: string;
}
/** Connects, reads the server's certificate and hangs up without sending a byte of HTTP. */
export declare function probeCertificate(url: string, ca?: string | Buffer, timeoutMs?: number): Promise<CertificateProbe>;
