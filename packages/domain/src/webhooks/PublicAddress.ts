import { Result } from "effect"
import { IpNetwork, NetAddress } from "effect/net"

const networks = (cidrs: ReadonlyArray<string>): ReadonlyArray<IpNetwork.IpNetwork> =>
  cidrs.map((cidr) => IpNetwork.fromStringUnsafe(cidr))

const within = (ranges: ReadonlyArray<IpNetwork.IpNetwork>, address: NetAddress.IpAddress): boolean =>
  ranges.some((range) => IpNetwork.contains(range, address))

/** IANA's IPv4 special-purpose ranges that are not globally reachable, plus multicast and the reserved 240/4. */
const SPECIAL_IPV4 = networks([
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4"
])

/** IPv6 ranges that carry an IPv4 address in their last 32 bits (IPv4-mapped, the well-known NAT64 prefix). */
const EMBEDDING_IPV6 = networks(["::ffff:0:0/96", "64:ff9b::/96"])
const SIX_TO_FOUR = IpNetwork.fromStringUnsafe("2002::/16")
const GLOBAL_UNICAST = IpNetwork.fromStringUnsafe("2000::/3")
/**
 * Special-purpose blocks inside 2000::/3 (the IETF protocol block 2001::/23 with the documentation 2001:db8::/32 next to
 * it, and the documentation 3fff::/20). Everything outside 2000::/3 (::, ::1, 100::/64, 64:ff9b:1::/48, fc00::/7,
 * fe80::/10, fec0::/10, ff00::/8, and the unassigned rest) is not global unicast at all.
 */
const SPECIAL_IPV6 = networks(["2001::/23", "2001:db8::/32", "3fff::/20"])

const isPublicIpv4 = (address: NetAddress.IpAddress): boolean => !within(SPECIAL_IPV4, address)

/** Whether the IPv4 address in the four octets from `start` of an IPv6 address is public. */
const isPublicEmbedded = (address: NetAddress.Ipv6Address, start: number): boolean =>
  isPublicIpv4(
    NetAddress.ipv4FromBytesUnsafe(Uint8Array.from(NetAddress.ipv6ToOctets(address).slice(start, start + 4)))
  )

const isPublicIpv6 = (address: NetAddress.Ipv6Address): boolean => {
  if (within(EMBEDDING_IPV6, address)) return isPublicEmbedded(address, 12)
  if (IpNetwork.contains(SIX_TO_FOUR, address)) return isPublicEmbedded(address, 2)
  return IpNetwork.contains(GLOBAL_UNICAST, address) && !within(SPECIAL_IPV6, address)
}

/**
 * Whether an IP address is public: a globally reachable unicast address, never loopback, private, shared, link-local,
 * documentation, benchmarking, multicast, reserved or unspecified. An IPv6 address that embeds an IPv4 one (mapped,
 * NAT64, 6to4) is judged by the IPv4 address. Accepts dotted-quad IPv4 and IPv6 text (brackets allowed); anything
 * else, including IPv6 with a zone id (never global), is not public.
 */
export const isPublicAddress = (address: string): boolean => {
  const v4 = NetAddress.ipv4FromString(address)
  if (Result.isSuccess(v4)) return isPublicIpv4(v4.success)
  const v6 = NetAddress.ipv6FromString(
    address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address
  )
  return Result.isSuccess(v6) && isPublicIpv6(v6.success)
}

/** Whether a URL hostname (as WHATWG URL normalises it) is an IP literal rather than a domain name. */
export const isIpLiteralHost = (hostname: string): boolean =>
  hostname.startsWith("[") || Result.isSuccess(NetAddress.ipv4FromString(hostname))
