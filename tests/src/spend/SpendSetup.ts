import {
  AgentKeys,
  type AgentKeysRepo,
  type AgentPrincipal,
  type ApprovalsRepo,
  type EventOutbox,
  type IdempotencyStore,
  Ledger,
  type LedgerRepo,
  type SpendPolicy,
  SpendRequests,
  type SpendRequestsRepo,
  type TeamPrincipal,
  Teams,
  type TeamsRepo,
  type Transactor,
  type UserId,
  Users,
  type UsersRepo
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"

/** The ports every spend contract runs on. */
export type Ports =
  | Transactor
  | UsersRepo
  | TeamsRepo
  | LedgerRepo
  | EventOutbox
  | AgentKeysRepo
  | ApprovalsRepo
  | SpendRequestsRepo
  | IdempotencyStore

/** The spend services over whichever ports the caller provides. */
export const domainOver = <E>(ports: Layer.Layer<Ports, E>) =>
  Layer.mergeAll(Users.layer, Teams.layer, SpendRequests.layer).pipe(
    Layer.provideMerge(AgentKeys.layer),
    Layer.provideMerge(Ledger.layer),
    Layer.provideMerge(ports)
  )

/** A funded test-mode team with one spending key carrying `policy`; returns the agent and the owner as approver. */
export const fundedAgent = (opts: { readonly funds: number; readonly policy?: SpendPolicy }) =>
  Effect.gen(function* () {
    const teams = yield* Teams
    const ledger = yield* Ledger
    const keys = yield* AgentKeys
    const owner = { id: crypto.randomUUID() as UserId, email: "owner@example.com", fullName: "Owner" }
    const team = yield* teams.create(owner, { name: "Acme" })
    const { key, secret } = yield* keys.issueSpendingKey({
      teamId: team.id,
      createdBy: owner.id,
      name: "agent",
      mode: "test",
      policy: opts.policy ?? {}
    })
    if (opts.funds > 0) {
      yield* ledger.deposit({
        teamId: team.id,
        mode: "test",
        accountId: key.accountId,
        amount: opts.funds,
        currency: "USD",
        reference: "seed"
      })
    }
    const agent = Option.getOrThrow(yield* keys.authenticate(secret))
    const approver: TeamPrincipal = {
      kind: "session",
      userId: owner.id,
      teamId: team.id,
      role: "owner",
      scopes: null,
      credentialId: `session:${owner.id}`
    }
    return { team, key, secret, agent, approver }
  })

/** A spend request of `amount` USD by `agent`. */
export const spend = (agent: AgentPrincipal, amount: number, merchant = "OpenAI", category = "software") =>
  SpendRequests.use((s) =>
    s.create(agent, { amount, currency: "USD", merchant: { name: merchant, category }, purpose: "tokens" })
  )
