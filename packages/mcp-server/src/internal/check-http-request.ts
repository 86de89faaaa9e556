// The checks an HTTP request passes before it reaches an MCP session: DNS-rebinding protection (the Host
// header's hostname, and the Origin when a browser sent one, must be ones the server was told to accept) and,
// when a token is set, `Authorization: Bearer <token>` (compared in constant time).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface HttpRequestRules {
  /** Hostnames accepted in `Host` (any port), e.g. `localhost`, `127.0.0.1`, `[::1]`. */
  allowedHosts: readonly string[];
  /** Origins accepted in `Origin` (`http://localhost:3000`); default: any origin whose hostname is allowed. */
  allowedOrigins?: readonly string[] | undefined;
  /** When set, `Authorization: Bearer <token>` is required (compared in constant time). */
  token?: string | undefined;
}

/** Why a request is refused, as the HTTP status and a message; undefined when it may pass. */
export function checkHttpRequest(request: IncomingMessage, rules: HttpRequestRules): { status: 401 | 403; message: string } | undefined {
  const host = request.headers.host;
  const hostname = host === undefined ? undefined : hostnameOf(`http://${host}`);
  if (hostname === undefined || !rules.allowedHosts.includes(hostname)) {
    return { status: 403, message: `Forbidden: Host ${JSON.stringify((host ?? '').slice(0, 200))} is not allowed (DNS-rebinding protection); allowed: ${rules.allowedHosts.join(', ')}` };
  }
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const allowed = rules.allowedOrigins !== undefined ? rules.allowedOrigins.includes(origin) : rules.allowedHosts.includes(hostnameOf(origin) ?? '');
    if (!allowed) return { status: 403, message: `Forbidden: Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed (DNS-rebinding protection)` };
  }
  if (rules.token !== undefined && !bearerMatches(request.headers.authorization, rules.token)) {
    return { status: 401, message: 'Unauthorized: this server needs "Authorization: Bearer <token>"' };
  }
  return undefined;
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = header === undefined ? null : /^Bearer\s+(.+)$/i.exec(header.trim());
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}
