type Bytes = ReadonlyArray<number>
type Range = readonly [prefix: Bytes, bits: number]

const DECIMAL_OCTET = /^(0|[1-9]\d{0,2})$/u
const HEX_GROUP = /^[0-9a-f]{1,4}$/u

/** The four bytes of a dotted-quad IPv4 address in canonical decimal form (no leading zeros), else undefined. */
const parseIpv4 = (text: string): Bytes | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4 || !parts.every((p) => DECIMAL_OCTET.test(p))) return undefined
  const bytes = parts.map(Number)
  return bytes.every((b) => b <= 255) ? bytes : undefined
}

const parseGroups = (text: string): Array<number> | undefined => {
  if (text === "") return []
  const parts = text.split(":")
  const last = parts[parts.length - 1]!
  const tail = last.includes(".") ? parseIpv4(last) : undefined
  if (last.includes(".") && tail === undefined) return undefined
  const hex = tail === undefined ? parts : parts.slice(0, -1)
  if (!hex.every((p) => HEX_GROUP.test(p))) return undefined
  const groups = hex.map((p) => Number.parseInt(p, 16))
  return tail === undefined ? groups : [...groups, (tail[0]! << 8) | tail[1]!, (tail[2]! << 8) | tail[3]!]
}

/** The sixteen bytes of an IPv6 address (any case, `::` compression, a dotted IPv4 tail), else undefined. */
const parseIpv6 = (text: string): Bytes | undefined => {
  const halves = text.toLowerCase().split("::")
  if (halves.length > 2 || (halves.length === 2 && halves[0]!.includes("."))) return undefined
  const head = parseGroups(halves[0]!)
  const tail = halves.length === 2 ? parseGroups(halves[1]!) : []
  if (head === undefined || tail === undefined) return undefined
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined
  return [...head, ...Array<number>(missing).fill(0), ...tail].flatMap((g) => [g >> 8, g & 0xff])
}

/** Whether the first `bits` bits of the address are those of the prefix (missing prefix bytes are zero). */
const inRange = (address: Bytes, [prefix, bits]: Range): boolean =>
  Array.from({ length: Math.ceil(bits / 8) }, (_, i) => i).every((i) => {
    const mask = (0xff << (8 - Math.min(8, bits - 8 * i))) & 0xff
    return ((address[i] ?? 0) & mask) === ((prefix[i] ?? 0) & mask)
  })

/** IANA's IPv4 special-purpose ranges that are not globally reachable, plus multicast and the reserved 240/4. */
const SPECIAL_IPV4: ReadonlyArray<Range> = [
  [[0], 8],
  [[10], 8],
  [[100, 64], 10],
  [[127], 8],
  [[169, 254], 16],
  [[172, 16], 12],
  [[192, 0, 0], 24],
  [[192, 0, 2], 24],
  [[192, 88, 99], 24],
  [[192, 168], 16],
  [[198, 18], 15],
  [[198, 51, 100], 24],
  [[203, 0, 113], 24],
  [[224], 4],
  [[240], 4]
]

const isPublicIpv4 = (address: Bytes): boolean => !SPECIAL_IPV4.some((range) => inRange(address, range))

/** IPv6 ranges that carry an IPv4 address in their last 32 bits (IPv4-mapped, the well-known NAT64 prefix). */
const EMBEDDING_IPV6: ReadonlyArray<Range> = [
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96],
  [[0, 0x64, 0xff, 0x9b], 96]
]
const SIX_TO_FOUR: Range = [[0x20, 0x02], 16]
const GLOBAL_UNICAST: Range = [[0x20], 3]
/**
 * Special-purpose blocks inside 2000::/3 (the IETF protocol block 2001::/23 with the documentation 2001:db8::/32 next to
 * it, and the documentation 3fff::/20). Everything outside 2000::/3 (::, ::1, 100::/64, 64:ff9b:1::/48, fc00::/7,
 * fe80::/10, fec0::/10, ff00::/8, and the unassigned rest) is not global unicast at all.
 */
const SPECIAL_IPV6: ReadonlyArray<Range> = [
  [[0x20, 0x01, 0x00], 23],
  [[0x20, 0x01, 0x0d, 0xb8], 32],
  [[0x3f, 0xff, 0x00], 20]
]

const isPublicIpv6 = (address: Bytes): boolean => {
  if (EMBEDDING_IPV6.some((range) => inRange(address, range))) return isPublicIpv4(address.slice(12))
  if (inRange(address, SIX_TO_FOUR)) return isPublicIpv4(address.slice(2, 6))
  return inRange(address, GLOBAL_UNICAST) && !SPECIAL_IPV6.some((range) => inRange(address, range))
}

/**
 * Whether an IP address is public: a globally reachable unicast address, never loopback, private, shared, link-local,
 * documentation, benchmarking, multicast, reserved or unspecified. An IPv6 address that embeds an IPv4 one (mapped,
 * NAT64, 6to4) is judged by the IPv4 address. Accepts dotted-quad IPv4 and IPv6 text (brackets allowed); anything
 * else, including IPv6 with a zone id (never global), is not public.
 */
export const isPublicAddress = (address: string): boolean => {
  const v4 = parseIpv4(address)
  if (v4 !== undefined) return isPublicIpv4(v4)
  const v6 = parseIpv6(address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address)
  return v6 !== undefined && isPublicIpv6(v6)
}

/** Whether a URL hostname (as WHATWG URL normalises it) is an IP literal rather than a domain name. */
export const isIpLiteralHost = (hostname: string): boolean =>
  hostname.startsWith("[") || parseIpv4(hostname) !== undefined
