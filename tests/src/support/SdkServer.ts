import { afterAll, beforeAll } from "@effect/vitest"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { appOnPostgres } from "@svc/api"
import { createClient, type PromiseClient } from "@svc/sdk"
import { Effect, Exit, Layer, Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { clientOf, sessionToken, testConfig } from "./InProcessApp.ts"
import { loopbackServer } from "./LoopbackServer.ts"

/** Which database the file's app runs on, for test titles. */
export const databaseName = process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres"

/**
 * The whole app on a database of its own (a fresh one on `DATABASE_URL`, else the embedded PGlite), built before
 * the file's tests and served on a loopback socket for the SDK; `call` drives the same app with fetch-style requests
 * for setting up what a test does not send through the SDK.
 */
export const sdkServerOnDatabase = () => {
  let handle: ((request: Request) => Promise<Response>) | undefined
  let scope: Scope.Closeable | undefined
  let dispose: () => Promise<void> = async () => undefined
  const handler = (request: Request) => {
    if (handle === undefined) throw new Error("the app is not built yet")
    return handle(request)
  }
  beforeAll(async () => {
    scope = Scope.makeUnsafe()
    const database = await Effect.runPromise(Layer.buildWithScope(TestDatabase, scope))
    const web = HttpRouter.toWebHandler(
      appOnPostgres(testConfig).pipe(
        Layer.provide(Layer.succeedContext(database)),
        Layer.provide(HttpServer.layerServices)
      ),
      { disableLogger: true }
    )
    handle = web.handler
    dispose = web.dispose
  }, 120_000)
  afterAll(async () => {
    await dispose()
    if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
  }, 60_000)
  const server = loopbackServer(handler)
  return { ...clientOf(handler), baseUrl: server.baseUrl }
}

/** A team made through the SDK: its owner's client and a test spending key's (and its secret), the key's account. */
export interface SdkTeam {
  readonly owner: PromiseClient
  readonly agent: PromiseClient
  readonly keyId: string
  readonly keySecret: string
  readonly accountId: string
}

/** Makes a team (its owner a new user), a test spending key of `policy` and deposits `funds` to the key's account. */
export const sdkTeam = async (
  baseUrl: string,
  options: { readonly policy?: Record<string, unknown>; readonly funds?: number } = {}
): Promise<SdkTeam> => {
  const owner = createClient({ baseUrl, token: await sessionToken() })
  await owner.teams.create({ payload: { name: "Acme" } })
  const key = await owner.agentKeys.createSpendingKey({
    payload: { name: "agent", mode: "test", policy: options.policy ?? {} }
  })
  const agent = createClient({ baseUrl, token: key.secret })
  const { accountId } = await agent.accounts.balance()
  if (options.funds !== undefined) {
    await agent.testHelpers.deposit({ payload: { amount: options.funds, currency: "USD" } })
  }
  return { owner, agent, keyId: key.id, keySecret: key.secret, accountId }
}
