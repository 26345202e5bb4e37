import { afterAll, assert, describe, it } from "@effect/vitest"
import { ClientAddress, parseTrustedProxies } from "@svc/adapters-http"
import { clientAddress as apiClientAddress } from "@svc/api"
import { ConfigProvider, Effect, Layer, Option, Result } from "effect"
import { HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"

/** A router answering the client address it sees, behind `ClientAddress` trusting the proxies `trustProxy` lists. */
const echo = (trustProxy: string | undefined) =>
  HttpRouter.toWebHandler(
    HttpRouter.add("GET", "/ip", (request) =>
      Effect.succeed(HttpServerResponse.text(Option.getOrElse(request.remoteAddress, () => "none")))
    ).pipe(
      Layer.provide(ClientAddress(Result.getOrThrow(parseTrustedProxies(trustProxy ?? "")))),
      Layer.provide(HttpServer.layerServices)
    ),
    {
      disableLogger: true,
      // A web Request has no socket: the test names the connected peer in a header.
      middleware: (app) =>
        Effect.updateService(app, HttpServerRequest.HttpServerRequest, (request) =>
          request.modify({ remoteAddress: Option.fromNullishOr(request.headers["x-test-peer"]) })
        )
    }
  )

const handlers = new Map<string | undefined, ReturnType<typeof echo>>()
afterAll(async () => {
  for (const { dispose } of handlers.values()) await dispose()
})

const clientAddress = async (trustProxy: string | undefined, peer: string, forwardedFor?: string) => {
  let served = handlers.get(trustProxy)
  if (served === undefined) {
    served = echo(trustProxy)
    handlers.set(trustProxy, served)
  }
  const headers: Record<string, string> = { "x-test-peer": peer }
  if (forwardedFor !== undefined) headers["x-forwarded-for"] = forwardedFor
  return (await served.handler(new Request("http://svc.test/ip", { headers }))).text()
}

describe("TRUST_PROXY parsing", () => {
  it.each([
    ["", []],
    ["10.0.0.1", ["10.0.0.1/32"]],
    [" 10.0.0.0/8 , 192.168.1.0/24,", ["10.0.0.0/8", "192.168.1.0/24"]],
    ["::1, fd00::/8", ["::1/128", "fd00::/8"]]
  ])("accepts %j", (text, networks) => {
    const parsed = parseTrustedProxies(text)
    assert.isTrue(Result.isSuccess(parsed))
    if (Result.isSuccess(parsed)) assert.deepStrictEqual(parsed.success.map(String), networks)
  })

  it.each([
    ["10.0.0.256", "10.0.0.256"],
    ["10.0.0.0/33", "10.0.0.0/33"],
    ["10.0.0.1, proxy.internal", "proxy.internal"],
    ["fd00::/129", "fd00::/129"],
    ["10.0.0.1/8", "10.0.0.1/8"]
  ])("refuses %j, naming %j", (text, entry) => {
    assert.deepStrictEqual(parseTrustedProxies(text), Result.fail(entry))
  })

  it("the API refuses to start with a malformed TRUST_PROXY, and trusts none without it", async () => {
    const unset = await Effect.runPromiseExit(
      Layer.build(apiClientAddress).pipe(
        Effect.provide(HttpRouter.layer),
        Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({}))),
        Effect.scoped
      )
    )
    assert.isTrue(unset._tag === "Success")
    const built = await Effect.runPromiseExit(
      Layer.build(apiClientAddress).pipe(
        Effect.provide(HttpRouter.layer),
        Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ TRUST_PROXY: "10.0.0.0/8,not-an-ip" }))),
        Effect.scoped
      )
    )
    assert.isTrue(built._tag === "Failure")
    assert.include(String(built), "not-an-ip")
  })
})

describe("the client address of a request", () => {
  it.each([
    ["no TRUST_PROXY: the header is ignored", undefined, "10.0.0.1", "203.0.113.9", "10.0.0.1"],
    ["an untrusted peer: the header is ignored", "10.0.0.0/8", "198.51.100.1", "203.0.113.9", "198.51.100.1"],
    ["a trusted peer: the forwarded client", "10.0.0.0/8", "10.0.0.1", "203.0.113.9", "203.0.113.9"],
    ["a trusted peer without the header", "10.0.0.0/8", "10.0.0.1", undefined, "10.0.0.1"],
    ["spoofed entries left of the proxy's", "10.0.0.0/8", "10.0.0.1", "1.1.1.1, 2.2.2.2, 203.0.113.9", "203.0.113.9"],
    ["trusted hops are skipped", "10.0.0.0/8", "10.0.0.1", "1.1.1.1, 203.0.113.9, 10.0.0.7", "203.0.113.9"],
    ["a single trusted address", "10.0.0.1", "10.0.0.1", "203.0.113.9", "203.0.113.9"],
    ["a neighbour of a single trusted address is not trusted", "10.0.0.1", "10.0.0.2", "203.0.113.9", "10.0.0.2"],
    ["an IPv4-mapped IPv6 peer", "10.0.0.0/8", "::ffff:10.0.0.1", "203.0.113.9", "203.0.113.9"],
    ["an IPv6 proxy and client", "fd00::/8", "fd00::1", "2001:db8::5", "2001:db8::5"],
    ["a malformed entry stops at the proxy", "10.0.0.0/8", "10.0.0.1", "203.0.113.9, unknown", "10.0.0.1"],
    ["garbage in the header", "10.0.0.0/8", "10.0.0.1", ",,<script>", "10.0.0.1"]
  ])("%s", async (_name, trustProxy, peer, forwardedFor, expected) => {
    assert.strictEqual(await clientAddress(trustProxy, peer, forwardedFor), expected)
  })
})
