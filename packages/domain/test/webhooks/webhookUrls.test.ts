import { assert, describe, it } from "@effect/vitest"
import { checkWebhookUrl } from "../../src/webhooks/WebhookRules.ts"

const production = { allowPrivateDestinations: false }
const development = { allowPrivateDestinations: true }

/** The URLs of a security probe: loopback, private and metadata addresses in the forms URL parsing normalises. */
const PROBES = [
  "https://127.0.0.1/h",
  "https://127.1/",
  "https://0x7f.0.0.1/",
  "https://2130706433/",
  "https://017700000001/",
  "https://0177.0.0.1/",
  "https://[::1]/",
  "https://[0:0:0:0:0:0:0:1]/",
  "https://[::ffff:127.0.0.1]/",
  "https://[::ffff:a9fe:a9fe]/",
  "https://[64:ff9b::a9fe:a9fe]/",
  "https://[2002:7f00:1::]/",
  "https://[FE80::1]/",
  "https://[fd00::1]/h",
  "https://[ff02::1]/",
  "https://[::]/",
  "https://169.254.169.254/latest/meta-data",
  "https://0xa9.0xfe.0xa9.0xfe/",
  "https://10.0.0.5/h",
  "https://172.16.0.1/h",
  "https://192.168.1.10/h",
  "https://100.64.0.1/h",
  "https://198.18.0.1/",
  "https://198.19.255.255/",
  "https://224.0.0.1/",
  "https://255.255.255.255/",
  "https://0.0.0.0/h",
  "https://0/",
  "https://localhost/h",
  "https://LOCALHOST./h",
  "https://api.localhost/h"
]

describe("checkWebhookUrl", () => {
  it("accepts https URLs to public hosts and public IP literals", () => {
    for (const url of [
      "https://hooks.example.com/svc",
      "https://8.8.8.8/x",
      "https://172.32.0.1/h",
      "https://[2001:4860:4860::8888]/h",
      "https://169.254.169.254.nip.io/h"
    ]) {
      assert.isUndefined(checkWebhookUrl(url, production), url)
    }
  })

  it("refuses plain http, other schemes, credentials, relative and over-long URLs", () => {
    assert.include(checkWebhookUrl("http://hooks.example.com/x", production) ?? "", "https")
    assert.include(checkWebhookUrl("http://localhost:4000/h", production) ?? "", "https")
    assert.include(checkWebhookUrl("ftp://hooks.example.com/x", production) ?? "", "https")
    assert.include(checkWebhookUrl("https://user:pw@hooks.example.com/x", production) ?? "", "credentials")
    assert.include(checkWebhookUrl("/relative", production) ?? "", "absolute")
    assert.include(checkWebhookUrl(`https://example.com/${"a".repeat(2050)}`, production) ?? "", "2048")
  })

  it("refuses loopback, private, link-local and other non-public hosts after URL normalisation", () => {
    for (const url of PROBES) assert.include(checkWebhookUrl(url, production) ?? "", "non-public", url)
  })

  it("in development mode allows http and non-public hosts, but still not credentials or other schemes", () => {
    for (const url of [...PROBES, "http://localhost:4000/h", "http://127.0.0.1:9/h", "http://receiver:8080/h"]) {
      assert.isUndefined(checkWebhookUrl(url, development), url)
    }
    assert.include(checkWebhookUrl("https://user:pw@localhost/x", development) ?? "", "credentials")
    assert.include(checkWebhookUrl("file:///etc/passwd", development) ?? "", "https or http")
  })
})
