import { afterAll, assert, beforeAll } from "@effect/vitest"
import { inProcessApp, sessionToken, testConfig } from "../support/InProcessApp.ts"

/** A team made through the API: its owner's session and a test and a live spending key. */
export interface HttpTeam {
  readonly owner: string
  readonly testKey: string
  readonly liveKey: string
}

type Client = ReturnType<typeof inProcessApp>

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
