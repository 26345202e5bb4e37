import { assert, describe, it } from "@effect/vitest"
import { isIpLiteralHost, isPublicAddress } from "../../src/webhooks/PublicAddress.ts"

const refuses = (addresses: ReadonlyArray<string>) => {
  for (const address of addresses) assert.isFalse(isPublicAddress(address), address)
}
const accepts = (addresses: ReadonlyArray<string>) => {
  for (const address of addresses) assert.isTrue(isPublicAddress(address), address)
}

describe("isPublicAddress", () => {
  it("refuses every IPv4 special-purpose range, at both ends", () => {
    refuses([
      "0.0.0.0",
      "0.255.255.255",
      "10.0.0.0",
      "10.255.255.255",
      "100.64.0.0",
      "100.127.255.255",
      "127.0.0.1",
      "127.255.255.255",
      "169.254.0.0",
      "169.254.169.254",
      "169.254.255.255",
      "172.16.0.0",
      "172.31.255.255",
      "192.0.0.0",
      "192.0.0.255",
      "192.0.2.0",
      "192.0.2.255",
      "192.88.99.0",
      "192.88.99.255",
      "192.168.0.0",
      "192.168.255.255",
      "198.18.0.0",
      "198.19.255.255",
      "198.51.100.0",
      "198.51.100.255",
      "203.0.113.0",
      "203.0.113.255",
      "224.0.0.0",
      "239.255.255.255",
      "240.0.0.0",
      "255.255.255.254",
      "255.255.255.255"
    ])
  })

  it("accepts the public IPv4 addresses just outside those ranges", () => {
    accepts([
      "1.0.0.0",
      "9.255.255.255",
      "11.0.0.0",
      "100.63.255.255",
      "100.128.0.0",
      "126.255.255.255",
      "128.0.0.0",
      "169.253.255.255",
      "169.255.0.0",
      "172.15.255.255",
      "172.32.0.0",
      "192.0.1.255",
      "192.0.3.0",
      "192.88.98.255",
      "192.88.100.0",
      "192.167.255.255",
      "192.169.0.0",
      "198.17.255.255",
      "198.20.0.0",
      "198.51.99.255",
      "198.51.101.0",
      "203.0.112.255",
      "203.0.114.0",
      "223.255.255.255",
      "8.8.8.8"
    ])
  })

  it("refuses every IPv6 special-purpose range, in any case and compression", () => {
    refuses([
      "::",
      "0:0:0:0:0:0:0:0",
      "::1",
      "0000:0000:0000:0000:0000:0000:0000:0001",
      "[::1]",
      "100::",
      "100::ffff:ffff:ffff:ffff",
      "64:ff9b:1::",
      "64:ff9b:1:ffff:ffff:ffff:ffff:ffff",
      "64:ff9b:1::808:808",
      "2001::",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff",
      "2001:db8::",
      "2001:DB8:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF",
      "3fff::1",
      "fc00::",
      "fd12:3456:789a::1",
      "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      "fe80::",
      "FE80::1",
      "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      "fec0::1",
      "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      "ff00::",
      "ff02::1",
      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      "::127.0.0.1",
      "1000::1"
    ])
  })

  it("judges IPv4-mapped, NAT64 and 6to4 addresses by the IPv4 address they carry", () => {
    refuses([
      "::ffff:127.0.0.1",
      "::FFFF:7F00:1",
      "::ffff:169.254.169.254",
      "::ffff:10.0.0.1",
      "0:0:0:0:0:ffff:c0a8:0101",
      "64:ff9b::127.0.0.1",
      "64:ff9b::a9fe:a9fe",
      "2002:7f00:1::",
      "2002:a9fe:a9fe::1",
      "2002:c0a8:101:1::1"
    ])
    accepts(["::ffff:8.8.8.8", "::ffff:808:808", "64:ff9b::8.8.8.8", "2002:808:808::1"])
  })

  it("accepts public global unicast IPv6 addresses", () => {
    accepts(["2001:4860:4860::8888", "2001:200::1", "2606:4700:4700::1111", "[2a00:1450:4001:80b::200e]", "2c0f::1"])
  })

  it("refuses zone ids and anything that is not one canonical IP address", () => {
    refuses([
      "fe80::1%eth0",
      "2001:4860:4860::8888%1",
      "127.1",
      "0x7f.0.0.1",
      "2130706433",
      "017700000001",
      "08.8.8.8",
      "8.8.8.256",
      "8.8.8",
      "8.8.8.8.8",
      "1::2::3",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4:5:6:7",
      "::12345",
      "8.8.8.8::1",
      "::ffff:8.8.8",
      "hooks.example.com",
      ""
    ])
  })
})

describe("isIpLiteralHost", () => {
  it("tells IP literals from domain names in normalised URL hosts", () => {
    for (const host of ["127.0.0.1", "8.8.8.8", "[::1]", "[2001:db8::1]"]) assert.isTrue(isIpLiteralHost(host), host)
    for (const host of ["hooks.example.com", "169.254.169.254.nip.io", "localhost"]) {
      assert.isFalse(isIpLiteralHost(host), host)
    }
  })
})
