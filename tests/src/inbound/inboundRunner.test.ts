import { assert, describe, it } from "@effect/vitest"
import { FileStorageMemory, PortsMemory, SimulatedCardIssuer } from "@svc/adapters-memory"
import { InboundRunner, InboundRunnerLive, InboundWorker } from "@svc/adapters-webhooks"
import {
  CardAuthorizations,
  InboundEventStore,
  InboundRetryConfig,
  Inbox,
  Ledger,
  ManagedEntitiesRepo,
  type TeamId,
  TeamOpening,
  Teams,
  UserId
} from "@svc/domain"
import { Clock, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { unverifiedEntity } from "./InboundSetup.ts"

const POLICY = { ...InboundRetryConfig.defaultValue(), maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 4_000 }

const RunnerMemory = InboundRunnerLive.pipe(
  Layer.provideMerge(CardAuthorizations.layer.pipe(Layer.provide(SimulatedCardIssuer))),
  Layer.provideMerge(Inbox.layer.pipe(Layer.provide(FileStorageMemory))),
  Layer.provideMerge(Layer.mergeAll(Teams.layer, TeamOpening.layer)),
  Layer.provideMerge(Ledger.layer),
  Layer.provideMerge(PortsMemory),
  Layer.provide(Layer.succeed(InboundRetryConfig, POLICY))
)

const newTeam = TeamOpening.use((opening) =>
  opening.open({ id: UserId.make(crypto.randomUUID()), email: "owner@example.com", fullName: null }, { name: "Acme" })
).pipe(Effect.map((team) => team.id))

const livePosted = (teamId: TeamId) =>
  Ledger.use((ledger) => ledger.accounts(teamId, { mode: "live", kind: "spend" })).pipe(
    Effect.map((accounts) => accounts.reduce((sum, a) => sum + a.balance.posted, 0))
  )

/** Stores a verified event as the intake does: pending and due now. */
const stored = (endpoint: string, providerEventId: string, type: string, data: unknown) =>
  Effect.gen(function* () {
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    const store = yield* InboundEventStore
    const { event } = yield* store.record({
      id: crypto.randomUUID(),
      endpoint,
      providerEventId,
      type,
      payload: { id: providerEventId, type, data },
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      lastError: null,
      receivedAt: now,
      processedAt: null,
      teamId: null,
      discardedAt: null,
      discardedBy: null
    })
    return event.id
  })

const rowOf = (id: string) => InboundEventStore.use((store) => store.find(id)).pipe(Effect.map(Option.getOrThrow))

const step = InboundRunner.use((runner) => runner.runDue)

const deposit = (teamId: string, amount = 2500) => ({ team_id: teamId, amount, currency: "USD" })

describe("InboundRunner (memory, TestClock)", () => {
  it.effect("a deposit for an unknown team is parked at its first attempt and never retried", () =>
    Effect.gen(function* () {
      const ghost = crypto.randomUUID()
      const id = yield* stored("banking-a", "dep_ghost", "deposit.received", deposit(ghost))
      assert.strictEqual(yield* step, 1)
      const row = yield* rowOf(id)
      assert.strictEqual(row.status, "parked")
      assert.strictEqual(row.attempts, 1)
      assert.strictEqual(row.lastError, `no team ${ghost}`)
      yield* TestClock.adjust(POLICY.maxDelayMs * 10)
      assert.strictEqual(yield* step, 0)
      assert.strictEqual((yield* rowOf(id)).attempts, 1)
    }).pipe(Effect.provide(RunnerMemory))
  )

  it.effect("a KYC decision for an unknown entity is retried with doubling delays, then parked", () =>
    Effect.gen(function* () {
      const entityId = crypto.randomUUID()
      const id = yield* stored("kyc-d", "kyc_1", "check.completed", { entity_id: entityId, result: "clear" })
      assert.strictEqual(yield* step, 1)
      const first = yield* rowOf(id)
      assert.deepInclude(first, { status: "pending", attempts: 1, lastError: `no managed entity ${entityId}` })
      assert.strictEqual(first.nextAttemptAt, new Date(1_000).toISOString())
      yield* TestClock.adjust(999)
      assert.strictEqual(yield* step, 0, "not due before its delay")
      yield* TestClock.adjust(1)
      assert.strictEqual(yield* step, 1)
      assert.deepInclude(yield* rowOf(id), {
        status: "pending",
        attempts: 2,
        nextAttemptAt: new Date(3_000).toISOString()
      })
      yield* TestClock.adjust(2_000)
      assert.strictEqual(yield* step, 1)
      assert.deepInclude(yield* rowOf(id), {
        status: "parked",
        attempts: 3,
        lastError: `no managed entity ${entityId}`
      })
      yield* TestClock.adjust(POLICY.maxDelayMs * 10)
      assert.strictEqual(yield* step, 0)
    }).pipe(Effect.provide(RunnerMemory))
  )

  it.effect("a KYC decision retried after its entity was created is applied", () =>
    Effect.gen(function* () {
      const teamId = yield* newTeam
      const entityId = crypto.randomUUID()
      const id = yield* stored("kyc-b", "kyc_2", "decision", { entity_id: entityId, status: "approved" })
      assert.strictEqual(yield* step, 1)
      const entities = yield* ManagedEntitiesRepo
      yield* entities.insert(unverifiedEntity(entityId, teamId))
      yield* TestClock.adjust(POLICY.baseDelayMs)
      assert.strictEqual(yield* step, 1)
      assert.deepInclude(yield* rowOf(id), { status: "processed", attempts: 2, lastError: null })
      assert.strictEqual(Option.getOrThrow(yield* entities.find(entityId)).kycStatus, "approved")
    }).pipe(Effect.provide(RunnerMemory))
  )

  it.effect("an event the service does not act on is marked processed; a malformed one is parked at once", () =>
    Effect.gen(function* () {
      const teamId = yield* newTeam
      const ignored = yield* stored("kyc-a", "kyc_3", "applicantCreated", { note: "hi" })
      const malformed = yield* stored("banking-a", "dep_bad", "deposit.received", deposit(teamId, -5))
      assert.strictEqual(yield* step, 2)
      assert.deepInclude(yield* rowOf(ignored), { status: "processed", attempts: 1 })
      const parked = yield* rowOf(malformed)
      assert.deepInclude(parked, { status: "parked", attempts: 1 })
      assert.include(parked.lastError ?? "", "invalid deposit data")
      assert.strictEqual(yield* livePosted(teamId), 0)
    }).pipe(Effect.provide(RunnerMemory))
  )

  it.effect("an event run twice at once (a lease expired mid-run and another worker took it) credits once", () =>
    Effect.gen(function* () {
      const teamId = yield* newTeam
      const id = yield* stored("banking-c", "dep_race", "deposit.received", deposit(teamId))
      const store = yield* InboundEventStore
      const runner = yield* InboundRunner
      const claimed = Option.getOrThrow(yield* store.claim(id, new Date(60_000).toISOString()))
      yield* Effect.all([runner.run(claimed), runner.run(claimed), runner.run(claimed)], { concurrency: "unbounded" })
      assert.strictEqual(yield* livePosted(teamId), 2500)
      assert.strictEqual((yield* rowOf(id)).status, "processed")
    }).pipe(Effect.provide(RunnerMemory))
  )

  it.effect("the worker takes due events as it starts, then polls again after its interval", () =>
    Effect.gen(function* () {
      const teamId = yield* newTeam
      yield* stored("banking-a", "dep_w1", "deposit.received", deposit(teamId, 100))
      yield* Layer.build(InboundWorker)
      yield* TestClock.adjust(0)
      assert.strictEqual(yield* livePosted(teamId), 100)
      yield* stored("banking-a", "dep_w2", "deposit.received", deposit(teamId, 20))
      yield* TestClock.adjust(POLICY.pollIntervalMs - 1)
      assert.strictEqual(yield* livePosted(teamId), 100, "idle until the poll interval passes")
      yield* TestClock.adjust(1)
      assert.strictEqual(yield* livePosted(teamId), 120)
    }).pipe(Effect.scoped, Effect.provide(RunnerMemory))
  )
})
