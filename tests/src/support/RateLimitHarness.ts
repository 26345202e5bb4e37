import { assert } from "@effect/vitest"
import { ConfigProvider, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { type Answer, type clientOf, sessionToken } from "./InProcessApp.ts"

/** Serves an app layer in process with the given environment variables as its configuration. */
export const serve = <E, R>(app: Layer.Layer<never, E, R>, env: Record<string, string>) =>
  HttpRouter.toWebHandler(
    app.pipe(
      Layer.provide(HttpServer.layerServices),
      Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))
    ) as Layer.Layer<never, never, HttpRouter.HttpRouter>,
    { disableLogger: true }
  )

/** The three RateLimit headers of an answer, as numbers. */
const limitHeaders = (answer: Answer) => ({
  limit: Number(answer.headers.get("ratelimit-limit")),
  remaining: Number(answer.headers.get("ratelimit-remaining")),
  reset: Number(answer.headers.get("ratelimit-reset"))
})

/** Asserts the answer carries the three RateLimit headers with the given limit and remaining count. */
export const assertLimited = (answer: Answer, limit: number, remaining: number) => {
  const h = limitHeaders(answer)
  assert.strictEqual(h.limit, limit, "RateLimit-Limit")
  assert.strictEqual(h.remaining, remaining, "RateLimit-Remaining")
  assert.isTrue(Number.isInteger(h.reset) && h.reset >= 0 && h.reset <= 60, `RateLimit-Reset ${h.reset}`)
}

/** A team owner and a test spending key, made through the treasury routes. */
export const spendingKey = async (client: ReturnType<typeof clientOf>) => {
  const owner = await sessionToken({ email: `owner-${crypto.randomUUID()}@acme.test` })
  assert.strictEqual((await client.call("POST", "/teams", { token: owner, body: '{"name":"Acme"}' })).status, 201)
  const key = await client.call("POST", "/treasury/spending-keys", {
    token: owner,
    body: JSON.stringify({ name: "agent", mode: "test", policy: {} })
  })
  assert.strictEqual(key.status, 201)
  return key.body.secret as string
}
