import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { ChatInteractionsWebhook, InboundWebhooks } from "@svc/domain"
import { CHAT_APP_UNREACHABLE_ENV } from "../integrations/ChatPlatformFake.ts"
import { MAIL_APP_UNREACHABLE_ENV } from "../integrations/MailProviderServer.ts"
import { inProcessApp, sessionToken, testConfig } from "../support/InProcessApp.ts"

const webhookSecrets = Object.fromEntries(
  [...InboundWebhooks, ChatInteractionsWebhook].map((webhook) => [webhook.secretEnv, "configured-secret"])
)
const app = inProcessApp(testConfig, { ...webhookSecrets, ...CHAT_APP_UNREACHABLE_ENV, ...MAIL_APP_UNREACHABLE_ENV })
afterAll(() => app.dispose())

interface Operation {
  readonly method: string
  readonly path: string
}

let operations: ReadonlyArray<Operation> = []
const tokens: Record<string, string | undefined> = {}

beforeAll(async () => {
  const doc = (await app.call("GET", "/openapi.json")).body as { paths: Record<string, Record<string, unknown>> }
  operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method, path })))
  const owner = await sessionToken({ email: "owner@acme.test" })
  await app.call("POST", "/teams", { token: owner, body: { name: "Acme" } })
  const key = await app.call("POST", "/treasury/spending-keys", {
    token: owner,
    body: { name: "k", mode: "test", policy: {} }
  })
  tokens.none = undefined
  tokens.session = owner
  tokens.spendingKey = key.body.secret
  tokens.garbage = "not-a-credential"
})

const pathVariants = (path: string) => [
  path.replaceAll(/\{[^}]+\}/gu, "not-a-uuid"),
  path.replaceAll(/\{[^}]+\}/gu, crypto.randomUUID()),
  path.replaceAll(/\{[^}]+\}/gu, "%00%ff")
]

const bodies: ReadonlyArray<string> = [
  "",
  "{",
  "null",
  "[]",
  '"text"',
  "{}",
  '{"amount":-1,"currency":"usd","name":"","scopes":"all","policy":{"perRequestLimit":1.5}}',
  JSON.stringify({ amount: Number.MAX_SAFE_INTEGER + 2, nested: { deep: [[[[{}]]]] }, "\u0000": "\ud800" }),
  JSON.stringify(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, "x".repeat(100)])))
]

const queries = ["", "?limit=abc", "?limit=-1&cursor=%%%", "?cursor=eyJ4IjoxfQ&status=nonsense"]

describe("every documented route, given bad input of every kind", () => {
  it("answers a JSON error below 500, never an internal error", async () => {
    assert.isAbove(operations.length, 20)
    const failures: Array<string> = []
    for (const { method, path } of operations) {
      if (path === "/docs" || path === "/openapi.json") continue
      for (const [who, token] of Object.entries(tokens)) {
        for (const target of pathVariants(path)) {
          for (const query of method === "get" ? queries : [""]) {
            for (const body of method === "get" || method === "delete" ? [undefined] : bodies) {
              const answer = await app
                .call(method.toUpperCase(), `${target}${query}`, {
                  ...(token === undefined ? {} : { token }),
                  ...(body === undefined ? {} : { body }),
                  headers: { "idempotency-key": crypto.randomUUID() }
                })
                .catch((e: unknown) => ({ status: 599, body: String(e), headers: new Headers() }))
              const label = `${method.toUpperCase()} ${target}${query} as ${who} with ${String(body).slice(0, 40)}`
              if (answer.status >= 500)
                failures.push(`${answer.status} ${label}: ${JSON.stringify(answer.body).slice(0, 160)}`)
              else if (
                answer.status >= 400 &&
                (typeof answer.body !== "object" || answer.body === null || !("error" in answer.body))
              ) {
                failures.push(`non-JSON ${answer.status} ${label}`)
              }
            }
          }
        }
      }
    }
    assert.deepStrictEqual(failures.slice(0, 20), [])
  }, 300_000)
})
