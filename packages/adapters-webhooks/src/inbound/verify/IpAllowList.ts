import { Effect, Option, Result } from "effect"
import { IpNetwork, NetAddress } from "effect/net"
import { reject, requiringSecrets } from "./internal/crypto.ts"
import type { Verifier } from "./Verifier.ts"

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i

/** Normalises an address: strips brackets and zone ids, and turns IPv4-mapped IPv6 into plain IPv4. */
export const normalizeAddress = (address: string): string => {
  const bare = address
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "")
  return MAPPED_IPV4.exec(bare)?.[1] ?? bare
}

const parseAddress = (address: string): NetAddress.IpAddress | undefined =>
  Result.getOrUndefined(NetAddress.ipFromString(normalizeAddress(address)))

/** An address (a network of one) or a CIDR, whose host bits are cleared; undefined when it is neither. */
const networkOf = (entry: string): IpNetwork.IpNetwork | undefined => {
  const [address = "", prefix, ...rest] = entry.split("/")
  const ip = parseAddress(address)
  if (ip === undefined || rest.length > 0 || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) return undefined
  return Result.getOrUndefined(IpNetwork.fromAddress(ip, prefix === undefined ? NetAddress.width(ip) : Number(prefix)))
}

const allowLists = new WeakMap<ReadonlyArray<string>, ReadonlyArray<IpNetwork.IpNetwork>>()

/** The networks of an allow list of IP addresses and CIDRs, parsed once per list; entries that are neither are ignored. */
export const makeAllowList = (entries: ReadonlyArray<string>): ReadonlyArray<IpNetwork.IpNetwork> => {
  const parsed = allowLists.get(entries) ?? entries.flatMap((entry) => networkOf(entry) ?? [])
  allowLists.set(entries, parsed)
  return parsed
}

/** Whether `remoteAddress`, or the IPv4 address it maps or the IPv6 one mapping it, falls in an allow-list entry. */
export const isAllowedAddress = (entries: ReadonlyArray<string>, remoteAddress: string | undefined): boolean => {
  const ip = remoteAddress === undefined ? undefined : parseAddress(remoteAddress)
  if (ip === undefined) return false
  const forms =
    ip._tag === "Ipv4Address"
      ? [ip, NetAddress.toIpv4Mapped(ip)]
      : [ip, ...Option.toArray(NetAddress.fromIpv4Mapped(ip))]
  return makeAllowList(entries).some((network) => forms.some((form) => IpNetwork.contains(network, form)))
}

/** Verifies that the request's source address is in the configured allow list (IPs or CIDRs). */
export const ipAllowList: Verifier = requiringSecrets((request, entries) =>
  isAllowedAddress(entries, request.remoteAddress) ? Effect.void : reject("forbidden_ip")
)
