import { assert, describe, it } from "@effect/vitest"
import { appInMemory } from "@svc/api"
import { ChatInteractionsWebhook, InboundWebhooks, signatureHeaders } from "@svc/domain"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { inProcessApp, testConfig } from "../support/InProcessApp.ts"

/** The routes that serve the document itself and its reference page. */
const DOCUMENT_ROUTES = ["GET /openapi.json", "GET /docs"]

/** The MCP endpoint: JSON-RPC over Streamable HTTP, described by the protocol's own `tools/list`, not by OpenAPI. */
const isMcpRoute = (route: string) => route.endsWith(" /mcp")

/** Every `METHOD /path` the application registers on its router, path parameters written `{name}`. */
const registeredRoutes = Effect.gen(function* () {
  const routes: Array<string> = []
  const record = (method: string, path: string) => routes.push(`${method} ${path.replaceAll(/:(\w+)/gu, "{$1}")}`)
  const router = yield* HttpRouter.make
  const recording = HttpRouter.HttpRouter.of({
    ...router,
    add: (method, path, handler, options) => {
      record(method, path)
      return router.add(method, path, handler, options)
    },
    addAll: (all) => {
      for (const route of all) record(route.method, route.path)
      return router.addAll(all)
    }
  })
  yield* HttpRouter.toHttpEffect(
    appInMemory(testConfig).pipe(
      Layer.provide(Layer.succeed(HttpRouter.HttpRouter, recording)),
      Layer.provide(HttpServer.layerServices)
    )
  )
  return routes
}).pipe(Effect.scoped)

interface Operation {
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string; readonly required: boolean }>
  readonly responses: Record<string, unknown>
  readonly summary?: string
}

const servedDocument = Effect.promise(async () => {
  const app = inProcessApp()
  try {
    return (await app.call("GET", "/openapi.json")).body as { paths: Record<string, Record<string, Operation>> }
  } finally {
    await app.dispose()
  }
})

const operationsOf = (doc: { paths: Record<string, Record<string, Operation>> }) =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`)
  )

describe("/openapi.json describes every served route", () => {
  it.effect("every registered route is a documented operation, and every documented operation is registered", () =>
    Effect.gen(function* () {
      const registered = yield* registeredRoutes
      const documented = operationsOf(yield* servedDocument)
      assert.includeMembers(registered, DOCUMENT_ROUTES)
      assert.include(registered, "POST /mcp")
      const served = registered.filter((route) => !DOCUMENT_ROUTES.includes(route) && !isMcpRoute(route))
      assert.isAbove(served.length, 50)
      assert.deepStrictEqual(
        served.filter((route) => !documented.includes(route)),
        [],
        "registered but undocumented"
      )
      assert.deepStrictEqual(
        documented.filter((operation) => !served.includes(operation)),
        [],
        "documented but not served"
      )
    })
  )

  it.effect("each inbound webhook documents its signature headers and the statuses it answers unsigned", () =>
    Effect.gen(function* () {
      const doc = yield* servedDocument
      const webhooks = [...InboundWebhooks, ChatInteractionsWebhook]
      const secrets = (value: string) => Object.fromEntries(webhooks.map((webhook) => [webhook.secretEnv, value]))
      for (const env of [secrets(""), secrets("configured-secret")]) {
        const app = inProcessApp(testConfig, env)
        for (const webhook of webhooks) {
          const operation = doc.paths[webhook.path]?.post
          assert.strictEqual(operation?.summary, webhook.summary, `${webhook.path} is documented`)
          assert.deepStrictEqual(
            (operation?.parameters ?? []).map((p) => [p.in, p.name, p.required]),
            signatureHeaders(webhook.signature).map((h) => ["header", h.name, true]),
            `${webhook.path} documents its signature headers`
          )
          const answer = yield* Effect.promise(() =>
            app.call("POST", webhook.path, { body: { id: "evt_1", type: "x" } })
          )
          assert.property(operation?.responses, String(answer.status), `${webhook.path} documents ${answer.status}`)
          assert.isString(answer.body.error)
        }
        yield* Effect.promise(() => app.dispose())
      }
    })
  )
})
