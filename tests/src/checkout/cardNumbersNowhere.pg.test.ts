import { assert, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Effect, Layer, Logger, References } from "effect"
import { SqlClient } from "effect/sql"
import { sessionToken } from "../support/Session.ts"
import { type Answer, baseEnv, call, post, serveApp, sign } from "../support/WebhooksHarness.ts"
import { AUTH_STREAM, authorizationRequest, cardTokenOf, intentBody, signedAuthorization } from "./CheckoutHttpSetup.ts"

const ok = (answer: Answer, status = 200) => {
  assert.strictEqual(answer.status, status, JSON.stringify(answer.body))
  return answer.body
}

/** The hex of a text's UTF-8 bytes, as Postgres renders a bytea column holding it. */
const hexOf = (text: string) => Buffer.from(text, "utf8").toString("hex")

/** Every row of every table of the database, each as Postgres renders the row as text. */
const everyRow = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const tables = yield* sql<{ readonly schema: string; readonly name: string }>`
    SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
    WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`
  const rows: Array<{ readonly table: string; readonly text: string }> = []
  for (const { schema, name } of tables) {
    const table = `"${schema.replaceAll('"', '""')}"."${name.replaceAll('"', '""')}"`
    for (const row of yield* sql.unsafe<{ readonly text: string }>(`SELECT t::text AS text FROM ${table} t`)) {
      rows.push({ table: name, text: row.text })
    }
  }
  return rows
})

/** Every log line the app writes, as JSON and as text. */
const lines: Array<string> = []
const capture = Logger.make((options) => {
  lines.push(Logger.formatJson.log(options), Logger.formatSimple.log(options))
})

layer(PortsPg.pipe(Layer.provideMerge(TestDatabase)), { timeout: "120 seconds", excludeTestServices: true })(
  "card numbers and CVCs are stored nowhere",
  (it) => {
    it.effect("after cards, authorizations, events and replays, no table, stored answer or log line holds one", () =>
      Effect.gen(function* () {
        const context = yield* Effect.context<never>()
        // Without WEBHOOK_SIGNING_KEY the app warns as it starts: a line that shows the capture sees the app's logs.
        const app = yield* serveApp(context, baseEnv({ WEBHOOK_SIGNING_KEY: undefined }))

        const owner = sessionToken()
        ok(yield* call(app, "POST", "/teams", owner, { name: "Cards" }), 201)
        const key = ok(
          yield* call(app, "POST", "/treasury/spending-keys", owner, { name: "buyer", mode: "test", policy: {} }),
          201
        ).secret as string
        const v1 = (path: string, body: unknown, idempotencyKey: string | undefined = crypto.randomUUID()) =>
          Effect.promise(async (): Promise<Answer> => {
            const response = await fetch(`${app.url}${path}`, {
              method: "POST",
              headers: {
                authorization: `Bearer ${key}`,
                "content-type": "application/json",
                ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey })
              },
              body: JSON.stringify(body)
            })
            return { status: response.status, body: await response.json() }
          })
        ok(yield* v1("/v1/test-helpers/deposits", { amount: 100_000, currency: "USD" }), 201)

        const secrets: Array<{ readonly number: string; readonly cvc: string }> = []
        const tokens: Array<string> = []
        const intents: Array<string> = []
        for (let i = 0; i < 4; i++) {
          const createKey = crypto.randomUUID()
          const intent = ok(yield* v1("/v1/checkout/intents", intentBody({ amount: 1_000 + i }), createKey), 201)
          ok(yield* v1("/v1/checkout/intents", intentBody({ amount: 1_000 + i }), createKey), 201)
          const credentialsKey = crypto.randomUUID()
          const first = ok(yield* v1(`/v1/checkout/intents/${intent.id}/credentials`, {}, credentialsKey))
          secrets.push({ number: first.number, cvc: first.cvc })
          for (const replayKey of [credentialsKey, crypto.randomUUID(), undefined]) {
            const again = ok(yield* v1(`/v1/checkout/intents/${intent.id}/credentials`, {}, replayKey))
            assert.notProperty(again, "number")
            assert.notProperty(again, "cvc")
          }
          tokens.push(yield* cardTokenOf(intent.id))
          intents.push(intent.id)
        }
        assert.strictEqual(new Set(secrets.map((s) => s.number)).size, 4)

        const authorize = (request: Record<string, unknown>) =>
          Effect.gen(function* () {
            const { body, headers } = yield* Effect.promise(() => signedAuthorization(request))
            return ok(yield* post(app, AUTH_STREAM, body, headers))
          })
        const [first, second, third, fourth] = tokens as [string, string, string, string]
        const cleared = authorizationRequest(first, 1_000)
        assert.strictEqual((yield* authorize(cleared)).approve_response, "APPROVED")
        assert.strictEqual((yield* authorize(cleared)).approve_response, "APPROVED")
        const reversed = authorizationRequest(second, 1_001)
        assert.strictEqual((yield* authorize(reversed)).approve_response, "APPROVED")
        assert.strictEqual((yield* authorize(authorizationRequest(third, 9_999))).decline_reason, "amount_over_intent")
        assert.strictEqual(
          (yield* authorize(authorizationRequest("card_tok_nobody", 10))).decline_reason,
          "card_not_found"
        )

        const event = (payload: unknown, id = `msg_${crypto.randomUUID()}`) =>
          Effect.gen(function* () {
            const body = JSON.stringify(payload)
            const headers = yield* Effect.promise(() => sign("card-issuing-a", body, { id }))
            return ok(yield* post(app, "/webhook/card-issuing-a", body, headers))
          })
        const clearingId = `msg_${crypto.randomUUID()}`
        const clearing = {
          type: "transaction",
          data: { id: `txn_${crypto.randomUUID()}`, token: cleared.token, amount: 1_000, currency: "USD" }
        }
        yield* event(clearing, clearingId)
        yield* event(clearing, clearingId)
        yield* event({ type: "authorization.advice", data: { token: reversed.token, amount: 0 } })
        yield* event({ type: "card.updated", data: { card_token: fourth, status: "inactive" } })
        ok(yield* v1(`/v1/checkout/intents/${intents[2]}/cancel`, {}, crypto.randomUUID()))
        const deadline = Date.now() + 10_000
        let status = ""
        while (status !== "completed" && Date.now() < deadline) {
          status = ok(yield* call(app, "GET", `/v1/checkout/intents/${intents[0]}`, key)).status
          if (status !== "completed") yield* Effect.sleep("25 millis")
        }
        assert.strictEqual(status, "completed")
        yield* app.stop

        const rows = yield* everyRow
        const tablesSeen = new Set(rows.map((r) => r.table))
        for (const table of ["idempotency_responses", "inbound_events", "ledger_transactions"]) {
          assert.isTrue(tablesSeen.has(table), `${table} was dumped with rows`)
        }
        assert.isTrue(
          rows.some((r) => r.text.includes(tokens[0] ?? "")),
          "the dump holds the cards' tokens, so it would hold their numbers"
        )
        assert.isTrue(
          rows.some(
            (r) =>
              r.table === "idempotency_responses" &&
              (r.text.includes(intents[0] ?? "") || r.text.includes(hexOf(intents[0] ?? "")))
          ),
          "the stored answers are searched in a form that shows what they hold"
        )
        const forbidden = secrets.flatMap(({ number, cvc }) => [
          number,
          hexOf(number),
          `"cvc":"${cvc}"`,
          hexOf(`"cvc":"${cvc}"`),
          `"cvc": "${cvc}"`
        ])
        for (const row of rows) {
          for (const secret of forbidden) {
            assert.notInclude(row.text, secret, `a card secret in ${row.table}`)
          }
        }
        assert.isTrue(
          lines.some((line) => line.includes("WEBHOOK_SIGNING_KEY is unset")),
          "the app's log lines were captured"
        )
        for (const line of lines) {
          for (const secret of forbidden) assert.notInclude(line, secret, "a card secret in a log line")
        }
      }).pipe(
        Effect.scoped,
        // The served app's fibers inherit the test's loggers and level: every line it logs, debug included, is seen.
        Effect.provide(Logger.layer([capture])),
        Effect.provideService(References.MinimumLogLevel, "All")
      )
    )
  }
)
