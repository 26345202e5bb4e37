import { afterAll, assert, beforeAll } from "@effect/vitest"
import { type Client, type KeyedTeam, setUpKeyedTeam } from "../support/HttpScenarios.ts"
import { inProcessApp, sessionToken, testConfig } from "../support/InProcessApp.ts"

/** A team made through the API: its owner's session and a test and a live spending key. */
export interface HttpTeam {
  readonly owner: string
  readonly testKey: string
  readonly liveKey: string
}

/** A team made through the API (`setUpKeyedTeam`) with its test receive address. */
export interface TransferTeam extends KeyedTeam {
  readonly address: string
}

export const setUpTransferTeam = async (
  app: Client,
  options: Parameters<typeof setUpKeyedTeam>[1] = {}
): Promise<TransferTeam> => {
  const team = await setUpKeyedTeam(app, options)
  const address = await app.call("GET", "/v1/transfers/receive-address", { token: team.key })
  return { ...team, address: address.body.address }
}

/** POST /v1/transfers with `key` under `idempotencyKey` (a fresh one by default). */
export const sendTransfer = (app: Client, key: string, body: unknown, idempotencyKey: string = crypto.randomUUID()) =>
  app.call("POST", "/v1/transfers", { token: key, body, headers: { "idempotency-key": idempotencyKey } })

/** Accepts, declines or cancels a transfer with `key`, under a fresh Idempotency-Key. */
export const actOnTransfer = (app: Client, key: string, id: string, operation: "accept" | "decline" | "cancel") =>
  app.call("POST", `/v1/transfers/${id}/${operation}`, {
    token: key,
    headers: { "idempotency-key": crypto.randomUUID() }
  })

const setUpTeam = async (app: Client, name: string): Promise<HttpTeam> => {
  const owner = await sessionToken({ email: `owner@${name.toLowerCase()}.test` })
  assert.strictEqual((await app.call("POST", "/teams", { token: owner, body: { name } })).status, 201)
  const key = async (mode: string) => {
    const answer = await app.call("POST", "/treasury/spending-keys", {
      token: owner,
      body: { name: `${mode} agent`, mode, policy: {} }
    })
    assert.strictEqual(answer.status, 201)
    return answer.body.secret as string
  }
  return { owner, testKey: await key("test"), liveKey: await key("live") }
}

/** A team API key of `team` in test mode with only `scopes`. */
export const teamApiKey = async (app: Client, team: HttpTeam, scopes: ReadonlyArray<string>) => {
  const answer = await app.call("POST", "/treasury/team-api-keys", {
    token: team.owner,
    body: { name: "scoped", mode: "test", scopes }
  })
  assert.strictEqual(answer.status, 201)
  return answer.body.secret as string
}

/** The in-process app with teams Acme and Globex, set up before the file's tests. */
export const twoTeamsApp = () => {
  const app = inProcessApp(testConfig)
  afterAll(() => app.dispose())
  const teams = { acme: undefined as unknown as HttpTeam, globex: undefined as unknown as HttpTeam }
  beforeAll(async () => {
    teams.acme = await setUpTeam(app, "Acme")
    teams.globex = await setUpTeam(app, "Globex")
  })
  /** Posts a payment code with `key` under `idempotencyKey` (a fresh one by default). */
  const createCode = (key: string, body: unknown, idempotencyKey: string = crypto.randomUUID()) =>
    app.call("POST", "/v1/transfers/payment-codes", {
      token: key,
      body,
      headers: { "idempotency-key": idempotencyKey }
    })
  return { app, teams, createCode }
}
