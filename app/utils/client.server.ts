/**
 * Who the client is and whether it reached us over https, decided in one
 * place: the server (scripts/serve.ts) works both out for every request —
 * the socket's address and scheme, or what a trusted proxy in front said
 * (TRUST_PROXY), and https whenever PUBLIC_URL is — and hands them to the
 * app in two headers of its own, replacing whatever a client sent under
 * those names. Sessions, rate limits, the audit log, Origin checks and
 * cookies all read them here.
 */
export const CLIENT_ADDRESS_HEADER = "X-Kallo-Client-Address";
export const CLIENT_PROTOCOL_HEADER = "X-Kallo-Client-Protocol";
/** When the server read the request's head (ms since 1970): its deadlines count from there. */
export const ARRIVED_HEADER = "X-Kallo-Arrived";

/** When the request arrived (now, for one that did not come through our server). */
export function arrivedAt(request: Request): number {
  const stamp = Number(request.headers.get(ARRIVED_HEADER));
  return Number.isFinite(stamp) && stamp > 0 ? Math.min(stamp, Date.now()) : Date.now();
}

/** The client's address, or "unknown" when the request did not come through our server (development). */
export function clientAddress(request: Request): string {
  const address = request.headers.get(CLIENT_ADDRESS_HEADER)?.trim();
  return address && address.length <= 64 ? address : "unknown";
}

/** Whether the client's own connection was https (directly, through a trusted proxy, or because PUBLIC_URL is https). */
export function isHttpsRequest(request: Request): boolean {
  return request.headers.get(CLIENT_PROTOCOL_HEADER) === "https";
}

/** An IPv4 address written the IPv6 way (`::ffff:10.0.0.5`) as people read it. */
export function plainAddress(address: string | undefined): string | undefined {
  return address?.startsWith("::ffff:") ? address.slice(7) : address;
}
