import { Option, Result } from "effect"
import { IpNetwork, NetAddress } from "effect/net"

/** How long a sign-in link stays usable, and the window its allowance is counted over: 15 minutes. */
export const SIGN_IN_LINK_TTL_SECONDS = 15 * 60

/**
 * How many links one client may have mailed to one address per window: the person's own allowance, which requests
 * from other clients never spend (ADR 0044).
 */
export const SIGN_IN_LINKS_PER_CLIENT = 5

/** How many links one address is mailed per window from all clients together: the most mail one inbox can be sent. */
export const SIGN_IN_LINKS_PER_ADDRESS = 20

/** The bounds a new link must stay within: its user's links created at or after `since`, from its client and in all. */
export interface SignInLinkLimits {
  readonly since: string
  readonly perClient: number
  readonly perAddress: number
}

/**
 * The client a link request is counted against, from its client address: an IPv4 address as it is (also when written
 * IPv4-mapped), an IPv6 address as its /64 network (one host commonly holds a whole /64, and would otherwise be a
 * new client at every address), anything else (no address known) as it is.
 */
export const signInClientOf = (address: string): string =>
  Result.match(NetAddress.ipFromString(address), {
    onFailure: () => address,
    onSuccess: (ip) => {
      if (!NetAddress.isIpv6Address(ip)) return NetAddress.formatIp(ip)
      return Option.match(NetAddress.fromIpv4Mapped(ip), {
        onSome: NetAddress.formatIp,
        onNone: () => IpNetwork.format(IpNetwork.fromAddressUnsafe(ip, 64))
      })
    }
  })

/** Whether one more link is within the limits, given how many its user already has in the window: from its client, in all. */
export const roomForLink = (
  recent: { readonly fromClient: number; readonly total: number },
  limits: SignInLinkLimits
): boolean => recent.fromClient < limits.perClient && recent.total < limits.perAddress
