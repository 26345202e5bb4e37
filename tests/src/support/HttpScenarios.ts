import { assert } from "@effect/vitest"
import { Readiness } from "@svc/adapters-http"
import { appLayer, type Ports, type ServiceConfig } from "@svc/api"
import type { TeamId } from "@svc/domain"
import { ConfigProvider, type Context, Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { type Answer, clientOf, sessionToken, testConfig } from "./InProcessApp.ts"

/** A fetch-style client of an in-process app. */
export type Client = ReturnType<typeof clientOf>

/**
 * Runs `f` against the whole app in process over the ports in context (a suite's, in memory or on Postgres), on the live
 * clock, closing the app after it; `env`, when given, is the whole environment the app's configuration reads.
 */
export const withAppOnPorts = (
  f: (app: Client, ports: Context.Context<Ports>) => Promise<void>,
  config: ServiceConfig = testConfig,
  env?: Record<string, string>
) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<Ports>()
    const app = appLayer(
      config,
      Layer.succeedContext(context),
      Layer.succeed(Readiness, { dependencies: [{ name: "database", check: Effect.succeed(true) }] })
    ).pipe(Layer.provide(HttpServer.layerServices))
    const { handler, dispose } = HttpRouter.toWebHandler(
      env === undefined ? app : app.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))),
      { disableLogger: true }
    )
    yield* Effect.addFinalizer(() => Effect.promise(() => dispose()))
    yield* Effect.promise(() => f(clientOf(handler), context))
  }).pipe(Effect.scoped)

/** A team made through the API: its id, its owner's session and a test spending key. */
export interface KeyedTeam {
  readonly id: TeamId
  readonly owner: string
  readonly key: string
}

/**
 * Makes a team through the API with a test spending key of `policy`; its account holds `funds` when given, in
 * `baseCurrency` (USD unless given).
 */
export const setUpKeyedTeam = async (
  app: Client,
  options: { readonly policy?: Record<string, unknown>; readonly funds?: number; readonly baseCurrency?: string } = {}
): Promise<KeyedTeam> => {
  const owner = await sessionToken()
  const created = await app.call("POST", "/teams", {
    token: owner,
    body: { name: "Team", ...(options.baseCurrency === undefined ? {} : { baseCurrency: options.baseCurrency }) }
  })
  assert.strictEqual(created.status, 201)
  const key = await app.call("POST", "/treasury/spending-keys", {
    token: owner,
    body: { name: "agent", mode: "test", policy: options.policy ?? {} }
  })
  assert.strictEqual(key.status, 201)
  if (options.funds !== undefined) {
    const deposit = await app.call("POST", "/v1/test-helpers/deposits", {
      token: key.body.secret,
      body: { amount: options.funds, currency: options.baseCurrency ?? "USD" },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    assert.strictEqual(deposit.status, 201)
  }
  return { id: created.body.id, owner, key: key.body.secret }
}

/** The posted, pending and available balance of the key's account. */
export const balance = async (app: Client, key: string) => {
  const { posted, pending, available } = (await app.call("GET", "/v1/balance", { token: key })).body
  return { posted, pending, available }
}

/** A 400 with `error` naming `field` (or a field inside it) among its details. */
export const assertInvalid = (answer: Answer, field: string, error = "validation_failed") => {
  assert.strictEqual(answer.status, 400, JSON.stringify(answer.body))
  assert.strictEqual(answer.body.error, error)
  assert.isTrue(
    answer.body.details.some((d: { path: string }) => d.path === field || d.path.startsWith(`${field}.`)),
    `${field} in ${JSON.stringify(answer.body)}`
  )
}
