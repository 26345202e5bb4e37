import { BlockList, isIP } from "node:net"
import { Effect } from "effect"
import { reject, requiringSecrets } from "./internal/crypto.ts"
import type { Verifier } from "./Verifier.ts"

type Family = "ipv4" | "ipv6"

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i

const familyOf = (address: string): Family | undefined => {
  const version = isIP(address)
  return version === 4 ? "ipv4" : version === 6 ? "ipv6" : undefined
}

/** Normalises an address: strips brackets and zone ids, and turns IPv4-mapped IPv6 into plain IPv4. */
export const normalizeAddress = (address: string): string => {
  const bare = address
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "")
  return MAPPED_IPV4.exec(bare)?.[1] ?? bare
}

/** Builds an allow list from IP addresses and CIDRs; entries that are neither are ignored. */
export const makeAllowList = (entries: ReadonlyArray<string>): BlockList => {
  const list = new BlockList()
  for (const entry of entries) {
    const [rawAddress = "", prefix, ...rest] = entry.split("/")
    const address = normalizeAddress(rawAddress)
    const family = familyOf(address)
    if (family === undefined || rest.length > 0) continue
    if (prefix === undefined) {
      list.addAddress(address, family)
      continue
    }
    const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN
    if (bits >= 0 && bits <= (family === "ipv4" ? 32 : 128)) list.addSubnet(address, bits, family)
  }
  return list
}

/** Whether `remoteAddress` falls in any of the allow-list entries. */
export const isAllowedAddress = (entries: ReadonlyArray<string>, remoteAddress: string | undefined): boolean => {
  if (remoteAddress === undefined) return false
  const address = normalizeAddress(remoteAddress)
  const family = familyOf(address)
  return family !== undefined && makeAllowList(entries).check(address, family)
}

/** Verifies that the request's source address is in the configured allow list (IPs or CIDRs). */
export const ipAllowList: Verifier = requiringSecrets((request, entries) =>
  isAllowedAddress(entries, request.remoteAddress) ? Effect.void : reject("forbidden_ip")
)
