import { assert, describe, it } from "@effect/vitest"
import { isAllowedAddress, normalizeAddress, ipAllowList as verify } from "../../../src/inbound/verify/IpAllowList.ts"
import { parseSecretList } from "../../../src/inbound/verify/Secrets.ts"
import { expectReason, makeRequest, NOW } from "./VerifySetup.ts"

const allowed = parseSecretList("127.0.0.1, 10.20.0.0/16, 2001:db8::/32, fe80::1")
const from = (remoteAddress?: string) => makeRequest("{}", {}, remoteAddress)

describe("inbox source IP allow list", () => {
  it.effect("accepts an exact IPv4 address", () => verify(from("127.0.0.1"), allowed, NOW))

  it.effect("accepts an IPv4 address inside a CIDR", () => verify(from("10.20.254.3"), allowed, NOW))

  it.effect("accepts an IPv4-mapped IPv6 address", () => verify(from("::ffff:127.0.0.1"), allowed, NOW))

  it.effect("accepts an IPv4-mapped IPv6 address inside a CIDR", () => verify(from("::FFFF:10.20.1.1"), allowed, NOW))

  it.effect("accepts an IPv6 address inside a CIDR", () => verify(from("2001:db8:abcd::42"), allowed, NOW))

  it.effect("accepts an exact IPv6 address with a zone id", () => verify(from("fe80::1%eth0"), allowed, NOW))

  it.effect("accepts the second configured entry", () => verify(from("10.20.0.9"), ["192.0.2.1", "10.20.0.9"], NOW))

  it.effect("refuses an address outside the list", () =>
    expectReason(verify(from("10.21.0.1"), allowed, NOW), "forbidden_ip")
  )

  it.effect("refuses an IPv6 address outside the list", () =>
    expectReason(verify(from("2001:db9::1"), allowed, NOW), "forbidden_ip")
  )

  it.effect("refuses a request without a source address", () =>
    expectReason(verify(from(), allowed, NOW), "forbidden_ip")
  )

  it.effect("refuses a garbage source address", () =>
    expectReason(verify(from("localhost"), allowed, NOW), "forbidden_ip")
  )

  it.effect("refuses everything when only invalid entries are configured", () =>
    expectReason(verify(from("127.0.0.1"), ["not-an-ip", "127.0.0.1/99", "1.2.3.4/8/1"], NOW), "forbidden_ip")
  )

  it.effect("reports an unset allow list", () =>
    expectReason(verify(from("127.0.0.1"), parseSecretList(undefined), NOW), "secret_not_configured")
  )

  it("normalises addresses", () => {
    assert.strictEqual(normalizeAddress("::ffff:192.0.2.1"), "192.0.2.1")
    assert.strictEqual(normalizeAddress("[2001:db8::1]"), "2001:db8::1")
    assert.isTrue(isAllowedAddress(["::ffff:192.0.2.1"], "192.0.2.1"))
    assert.isTrue(isAllowedAddress(["0.0.0.0/0"], "203.0.113.7"))
    assert.isFalse(isAllowedAddress(["0.0.0.0/0"], undefined))
  })
})
