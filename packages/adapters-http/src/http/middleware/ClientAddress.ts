import { Layer, Option, Result } from "effect"
import { HttpMiddleware, HttpRouter, type HttpServerRequest } from "effect/http"
import { IpNetwork, NetAddress } from "effect/net"

/** One trusted proxy: a CIDR, or a single address (a network of one). */
const networkOf = (entry: string): Result.Result<IpNetwork.IpNetwork, NetAddress.NetAddressError> =>
  entry.includes("/")
    ? IpNetwork.fromString(entry)
    : Result.flatMap(NetAddress.ipFromString(entry), (ip) => IpNetwork.fromAddress(ip, NetAddress.width(ip)))

/** The networks of a comma-separated list of addresses and CIDRs (IPv4 and IPv6), or the first entry that is neither. */
export const parseTrustedProxies = (text: string): Result.Result<ReadonlyArray<IpNetwork.IpNetwork>, string> =>
  Result.all(
    text
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "")
      .map((entry) => Result.mapError(networkOf(entry), () => entry))
  )

/**
 * The client address of every request, for every route and middleware that reads `request.remoteAddress` (rate
 * limits, the OAuth guard, inbound IP allow lists): the connected peer, unless that peer is one of the proxies in
 * `trustedProxies` (the API's `TRUST_PROXY`); then the right-most `X-Forwarded-For` address that is not itself a trusted proxy (a malformed entry
 * stops the walk at the proxy). `peerAddress` keeps the connected peer. Without trusted proxies the header is ignored.
 * The app installs it before the other global middlewares, so it runs first.
 */
export const ClientAddress = (trustedProxies: ReadonlyArray<IpNetwork.IpNetwork>) =>
  trustedProxies.length === 0
    ? Layer.empty
    : HttpRouter.middleware(HttpMiddleware.xForwardedHeaders({ trustedProxies }), { global: true })

/** The request's client address as resolved above, or `unknown` when the server was told none. */
export const clientAddressOf = (request: HttpServerRequest.HttpServerRequest): string =>
  Option.getOrElse(request.remoteAddress, () => "unknown")
