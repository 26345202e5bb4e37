import { assert, describe, it } from "@effect/vitest"
import { checkWebhookUrl } from "../../src/webhooks/WebhookRules.ts"

describe("checkWebhookUrl", () => {
  it("accepts https URLs and http on localhost", () => {
    for (const url of [
      "https://hooks.example.com/svc",
      "https://8.8.8.8/x",
      "http://localhost:4000/h",
      "http://127.0.0.1:9/h"
    ]) {
      assert.isUndefined(checkWebhookUrl(url), url)
    }
  })

  it("refuses plain http elsewhere, credentials, relative and over-long URLs", () => {
    assert.include(checkWebhookUrl("http://hooks.example.com/x") ?? "", "https")
    assert.include(checkWebhookUrl("https://user:pw@hooks.example.com/x") ?? "", "credentials")
    assert.include(checkWebhookUrl("/relative") ?? "", "absolute")
    assert.include(checkWebhookUrl(`https://example.com/${"a".repeat(2050)}`) ?? "", "2048")
  })

  it("refuses private, link-local, shared and unspecified IP literals, such as a cloud metadata address", () => {
    for (const url of [
      "https://169.254.169.254/latest/meta-data",
      "https://10.0.0.5/h",
      "https://172.16.0.1/h",
      "https://172.31.255.255/h",
      "https://192.168.1.10/h",
      "https://100.64.0.1/h",
      "https://0.0.0.0/h",
      "https://[fd00::1]/h",
      "https://[fe80::1]/h",
      "https://[::ffff:10.0.0.1]/h",
      "https://[::]/h"
    ]) {
      assert.include(checkWebhookUrl(url) ?? "", "private or link-local", url)
    }
    assert.isUndefined(checkWebhookUrl("https://172.32.0.1/h"))
  })
})
