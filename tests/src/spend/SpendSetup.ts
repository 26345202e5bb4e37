import {
  AgentKeys,
  type AgentKeysRepo,
  type AgentPrincipal,
  ApprovalChains,
  type ApprovalsRepo,
  type AuditLogRepo,
  type EventOutbox,
  type IdempotencyStore,
  Ledger,
  PersistenceUnavailable,
  SpendFreezes,
  type SpendFreezesRepo,
  type SpendPolicy,
  SpendRequests,
  SpendRequestsRepo,
  TeamOpening,
  type TeamPrincipal,
  Teams,
  type UserId,
  Users
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import type { LedgerPorts } from "../ledger/LedgerSetup.ts"

/** The ports every spend contract runs on. */
export type Ports = LedgerPorts<
  EventOutbox | AgentKeysRepo | ApprovalsRepo | SpendRequestsRepo | SpendFreezesRepo | IdempotencyStore | AuditLogRepo
>

/** A test-only wrapper of the spend request store: given the real one, the one the spend services use instead. */
export type RepoDecorator = (real: SpendRequestsRepo["Service"]) => SpendRequestsRepo["Service"]

/** The spend services over whichever ports the caller provides; `decorate` wraps the store they write through. */
export const domainOver = <E>(ports: Layer.Layer<Ports, E>, decorate: RepoDecorator = (real) => real) =>
  Layer.mergeAll(
    Users.layer,
    Teams.layer,
    TeamOpening.layer,
    SpendRequests.layer,
    SpendFreezes.layer,
    ApprovalChains.layer
  ).pipe(
    Layer.updateService(SpendRequestsRepo, decorate),
    Layer.provideMerge(AgentKeys.layer),
    Layer.provideMerge(Ledger.layer),
    Layer.provideMerge(ports)
  )

/** The purpose of a request the poisoned store refuses to write. */
export const POISON = "poison"

/**
 * A store over the real one whose `insertDecided` fails with PersistenceUnavailable, writing nothing, whenever the
 * batch holds a request whose purpose is POISON; `seen` lists every batch it was handed: its size, and whether poisoned.
 */
export const poisonedInserts = () => {
  const seen: Array<{ readonly size: number; readonly poisoned: boolean }> = []
  const decorate: RepoDecorator = (real) => ({
    ...real,
    insertDecided: (decided) =>
      Effect.suspend(() => {
        const poisoned = decided.some((d) => d.request.purpose === POISON)
        seen.push({ size: decided.length, poisoned })
        return poisoned
          ? Effect.fail(new PersistenceUnavailable({ operation: "insert poisoned spend batch" }))
          : real.insertDecided(decided)
      })
  })
  return { decorate, seen: () => [...seen] }
}

/** A funded test-mode team with one spending key carrying `policy`; returns the agent and the owner as approver. */
export const fundedAgent = (opts: { readonly funds: number; readonly policy?: SpendPolicy }) =>
  Effect.gen(function* () {
    const opening = yield* TeamOpening
    const ledger = yield* Ledger
    const keys = yield* AgentKeys
    const owner = { id: crypto.randomUUID() as UserId, email: "owner@example.com", fullName: "Owner" }
    const team = yield* opening.open(owner, { name: "Acme" })
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
