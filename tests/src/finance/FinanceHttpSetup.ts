import { assert } from "@effect/vitest"
import type { Client } from "../support/HttpScenarios.ts"
import { sessionToken } from "../support/InProcessApp.ts"

/** A team made through the API: its id and its owner's session. */
export interface FinanceTeam {
  readonly id: string
  readonly owner: string
}

/** A new team (base currency USD unless given) with its owner's session. */
export const financeTeam = async (app: Client, baseCurrency?: string): Promise<FinanceTeam> => {
  const owner = await sessionToken()
  const created = await app.call("POST", "/teams", {
    token: owner,
    body: { name: "Team", ...(baseCurrency === undefined ? {} : { baseCurrency }) }
  })
  assert.strictEqual(created.status, 201, JSON.stringify(created.body))
  return { id: created.body.id, owner }
}

/** A generic API key of the team's owner with these scopes. */
export const scopedKey = async (app: Client, team: FinanceTeam, scopes: ReadonlyArray<string>): Promise<string> => {
  const created = await app.call("POST", "/api-keys", { token: team.owner, body: { name: "finance", scopes } })
  assert.strictEqual(created.status, 201, JSON.stringify(created.body))
  return created.body.secret
}

/** A 403 `insufficient_scope` naming the scope. */
export const assertNeedsScope = (
  answer: { status: number; body: { error: string; message: string } },
  scope: string
) => {
  assert.strictEqual(answer.status, 403, JSON.stringify(answer.body))
  assert.strictEqual(answer.body.error, "insufficient_scope")
  assert.include(answer.body.message, scope)
}
