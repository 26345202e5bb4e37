import { afterAll, assert, beforeAll } from "@effect/vitest"
import { type clientOf, inProcessApp, sessionToken, testConfig } from "../support/InProcessApp.ts"

/** A spend request body for `amount` at OpenAI (software), with `extra` fields. */
export const spendBody = (amount: number, extra: Record<string, unknown> = {}) => ({
  amount,
  currency: "USD",
  merchant: { name: "OpenAI", category: "software" },
  purpose: "API tokens for the nightly run",
  ...extra
})

/** A JSON client: `call(method, path, options)` answers status, headers and parsed body. */
type Client = Pick<ReturnType<typeof clientOf>, "call">

/**
 * Team Acme, set up through `app`: its owner's session, a test spending key (approval threshold 5 000, per-request
 * limit 50 000) funded with 20 000, and a live key.
 */
export const setUpAcme = async (app: Client) => {
  const owner = await sessionToken({ email: "owner@acme.test" })
  assert.strictEqual((await app.call("POST", "/teams", { token: owner, body: { name: "Acme" } })).status, 201)
  const test = await app.call("POST", "/treasury/spending-keys", {
    token: owner,
    body: { name: "agent", mode: "test", policy: { approvalThreshold: 5_000, perRequestLimit: 50_000 } }
  })
  assert.strictEqual(test.status, 201)
  const live = await app.call("POST", "/treasury/spending-keys", {
    token: owner,
    body: { name: "live", mode: "live", policy: {} }
  })
  const deposit = await app.call("POST", "/v1/test-helpers/deposits", {
    token: test.body.secret,
    body: { amount: 20_000, currency: "USD" }
  })
  assert.strictEqual(deposit.status, 201)
  assert.deepStrictEqual(deposit.body.balance, { posted: 20_000, pending: 0, available: 20_000 })
  return {
    owner,
    testKey: test.body.secret as string,
    liveKey: live.body.secret as string,
    keyId: test.body.id as string
  }
}

/** Posts a spend request through `app` with `key`, under `idempotencyKey` (a fresh one by default). */
export const createSpend = (app: Client, key: string, body: unknown, idempotencyKey: string = crypto.randomUUID()) =>
  app.call("POST", "/v1/spend-requests", { token: key, body, headers: { "idempotency-key": idempotencyKey } })

/**
 * The in-process app (with `env` as its environment) with team Acme (`setUpAcme`), set up before the file's tests.
 * `create` posts a spend request.
 */
export const acmeApp = (env: Readonly<Record<string, string>> = {}) => {
  const app = inProcessApp(testConfig, env)
  afterAll(() => app.dispose())
  const acme = { owner: "", testKey: "", liveKey: "", keyId: "" }

  const create = (key: string, body: unknown, idempotencyKey?: string) => createSpend(app, key, body, idempotencyKey)

  beforeAll(async () => {
    Object.assign(acme, await setUpAcme(app))
  })
  return { app, acme, create }
}
