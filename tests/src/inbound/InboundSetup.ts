import { assert, layer } from "@effect/vitest"
import { FileStorageMemory, SimulatedCardIssuer } from "@svc/adapters-memory"
import { InboundRunner, InboundRunnerLive, WebhooksConfigLive } from "@svc/adapters-webhooks"
import { webhooksSettings } from "@svc/api"
import {
  CardAuthorizations,
  type FileStorage,
  InboundEventStore,
  Inbox,
  Ledger,
  type ManagedEntity,
  type TeamId
} from "@svc/domain"
import { ConfigProvider, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { sessionToken } from "../support/InProcessApp.ts"
import { baseEnv, call, post, type RunningApp, sign, type WebhookPorts } from "../support/WebhooksHarness.ts"

/** The path an inbound endpoint is served on. */
export const pathOf = (name: string) => (name === "chat-interactions" ? "/apps/chat/interactions" : `/webhook/${name}`)

/** A test app's environment: its inbound worker is off, so the tests run the worker's step themselves. */
export const appEnv = (overrides: Record<string, string | undefined> = {}) =>
  baseEnv({ WEBHOOK_WORKERS: "off", ...overrides })

/**
 * The inbound runner, the ledger and card authorizations over `ports` (inbox attachments in `files`), shared by a
 * suite's tests, whose apps run on the same ports.
 */
export const inboundOver = <E>(
  ports: Layer.Layer<WebhookPorts, E>,
  files: Layer.Layer<FileStorage> = FileStorageMemory
) =>
  layer(
    InboundRunnerLive.pipe(
      Layer.provideMerge(CardAuthorizations.layer.pipe(Layer.provide(SimulatedCardIssuer))),
      Layer.provideMerge(Inbox.layer.pipe(Layer.provideMerge(files))),
      Layer.provideMerge(Ledger.layer.pipe(Layer.provideMerge(ports))),
      Layer.provide(
        WebhooksConfigLive.pipe(
          Layer.provide(Layer.fresh(webhooksSettings)),
          Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(appEnv())))
        )
      )
    ),
    { timeout: "120 seconds", excludeTestServices: true }
  )

/**
 * What inbound workers do over time, without waiting: `workers` concurrent runs of the worker's step, on a test clock
 * moved past the longest retry delay after each round, until no stored event is due (each is processed or parked).
 */
export const settle = (workers = 1) =>
  Effect.gen(function* () {
    const runner = yield* InboundRunner
    yield* TestClock.setTime(Date.now())
    while (true) {
      const taken = yield* Effect.all(
        Array.from({ length: workers }, () => runner.runDue),
        { concurrency: "unbounded" }
      )
      if (taken.every((n) => n === 0)) return
      yield* TestClock.adjust(runner.policy.maxDelayMs)
    }
  }).pipe(Effect.provide(TestClock.layer()))

/** A team created over HTTP by a new user, and that owner's session token. */
export const newTeam = (app: RunningApp) =>
  Effect.gen(function* () {
    const token = yield* Effect.promise(() => sessionToken())
    const created = yield* call(app, "POST", "/teams", token, { name: "Acme" })
    assert.strictEqual(created.status, 201)
    return { teamId: created.body.id as TeamId, token }
  })

/** The posted balance of the team's first live spend account. */
export const liveBalance = (teamId: TeamId) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const [account] = yield* ledger.accounts(teamId, { mode: "live", kind: "spend" })
    return account!.balance.posted
  })

/** Posts a signed `deposit.received` event for the team to a banking endpoint. */
export const deposit = (
  app: RunningApp,
  endpoint: string,
  eventId: string,
  teamId: string,
  amount: number,
  currency = "USD"
) =>
  Effect.gen(function* () {
    const body = JSON.stringify({
      id: eventId,
      type: "deposit.received",
      data: { team_id: teamId, amount, currency }
    })
    const headers = yield* Effect.promise(() => sign(endpoint, body, { id: eventId }))
    return yield* post(app, pathOf(endpoint), body, headers)
  })

/** A managed entity of `teamId` whose KYC has not started: what a KYC decision applies to. */
export const unverifiedEntity = (id: string, teamId: TeamId): ManagedEntity => ({
  id,
  teamId,
  name: "Jane",
  kycStatus: "not_started",
  kycProvider: null,
  kycUpdatedAt: null,
  createdAt: new Date().toISOString()
})

/** Stored iff recording the same (endpoint, provider id) again reports a duplicate. */
export const isStored = (endpoint: string, providerEventId: string) =>
  Effect.gen(function* () {
    const store = yield* InboundEventStore
    const probe = yield* store.record({
      id: crypto.randomUUID(),
      endpoint,
      providerEventId,
      type: "probe",
      payload: {},
      status: "processed",
      attempts: 0,
      nextAttemptAt: new Date().toISOString(),
      lastError: null,
      receivedAt: new Date().toISOString(),
      processedAt: null,
      teamId: null,
      discardedAt: null,
      discardedBy: null
    })
    return probe.duplicate
  })
