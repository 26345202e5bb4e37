import { assert, layer } from "@effect/vitest"
import { PortsMemory } from "@svc/adapters-memory"
import { InboundRunner, InboundRunnerLive, WebhooksConfigLive } from "@svc/adapters-webhooks"
import { webhooksSettings } from "@svc/api"
import { ApprovalId, type InboundEventStatus, InboundEventStore, SpendRequests } from "@svc/domain"
import { ConfigProvider, Effect, Layer } from "effect"
import { fundedAgent, spend } from "../spend/SpendSetup.ts"
import { sessionToken, testConfig } from "../support/InProcessApp.ts"
import { baseEnv, call, post, SECRETS, withApp } from "../support/WebhooksHarness.ts"
import { CHANNEL, chatDomainOver, chatRound, installChat } from "./ChatApprovalsSetup.ts"
import { buttonPress, ChatPlatformFake, signedBody, signedInteraction } from "./ChatPlatformFake.ts"

const env = baseEnv({ WEBHOOK_WORKERS: "off", BACKGROUND_JOBS: "false" })

/** The test's own inbound runner over the app's ports, with the chat buttons: the tests run the worker's step. */
const Setup = InboundRunnerLive.pipe(
  Layer.provideMerge(chatDomainOver(PortsMemory)),
  Layer.provide(
    WebhooksConfigLive.pipe(
      Layer.provide(Layer.fresh(webhooksSettings)),
      Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))
    )
  )
)

const INTERACTIONS = "/apps/chat/interactions"

const buttonsOf = (blocks: ReadonlyArray<{ readonly type: string }>) => blocks.filter((b) => b.type === "actions")

/** Stores the press with `triggerId` in the inbound store as the route would; the result tells a duplicate. */
const recordPress = (triggerId: string, status: InboundEventStatus) =>
  InboundEventStore.use((s) =>
    s.record({
      id: crypto.randomUUID(),
      endpoint: "chat-interactions",
      providerEventId: triggerId,
      type: "block_actions",
      payload: {},
      status,
      attempts: 0,
      nextAttemptAt: new Date().toISOString(),
      lastError: null,
      receivedAt: new Date().toISOString(),
      processedAt: null,
      teamId: null,
      discardedAt: null,
      discardedBy: null
    })
  )

layer(Setup, { timeout: "120 seconds", excludeTestServices: true })("chat interactions over HTTP", (it) => {
  it.effect("a signed button press is acknowledged at once, then decides the approval as the linked member", () =>
    Effect.gen(function* () {
      const fake = yield* ChatPlatformFake
      const { team, agent, approver } = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 5_000 } })
      const workspaceId = yield* installChat(team.id, approver.userId)
      fake.addUser("U-OWNER", { email: "owner@example.com" })
      const pending = yield* spend(agent, 6_000)
      const approvalId = ApprovalId.make(pending.approval!.id)
      yield* chatRound
      const [posted] = fake.messages(CHANNEL).filter((m) => m.metadata?.event_payload.approval_id === approvalId)
      assert.isDefined(posted)
      yield* withApp(
        env,
        (app) =>
          Effect.gen(function* () {
            const response = fake.responseUrl()
            const interaction = buttonPress({
              workspaceId,
              user: "U-OWNER",
              action: "approve",
              approvalId,
              responseUrl: response.url,
              ts: posted!.ts
            })
            const signed = signedInteraction(SECRETS["chat-interactions"]!, interaction)
            const ack = yield* post(app, INTERACTIONS, signed.body, signed.headers)
            assert.strictEqual(ack.status, 200)
            assert.deepStrictEqual(ack.body, { ok: true })
            assert.strictEqual(
              (yield* SpendRequests.use((s) => s.get(team.id, undefined, pending.id))).status,
              "pending_approval",
              "acknowledged before the decision"
            )
            const replayed = yield* post(app, INTERACTIONS, signed.body, signed.headers)
            assert.deepStrictEqual(replayed.body, { ok: true })
            const stored = yield* recordPress(interaction.trigger_id, "pending")
            assert.isTrue(stored.duplicate, "stored once per trigger_id")
            yield* InboundRunner.use((r) => r.runDue)
            assert.strictEqual(
              (yield* SpendRequests.use((s) => s.get(team.id, undefined, pending.id))).status,
              "approved"
            )
            assert.deepStrictEqual(response.answers(), ["You approved the request."])
            yield* chatRound
            const [shown] = fake.messages(CHANNEL).filter((m) => m.ts === posted!.ts)
            assert.deepStrictEqual(buttonsOf(shown!.blocks), [])
            assert.match(shown!.text, /Approved by Owner/u)

            const second = fake.responseUrl()
            const again = signedInteraction(
              SECRETS["chat-interactions"]!,
              buttonPress({ workspaceId, user: "U-OWNER", action: "deny", approvalId, responseUrl: second.url })
            )
            assert.strictEqual((yield* post(app, INTERACTIONS, again.body, again.headers)).status, 200)
            yield* InboundRunner.use((r) => r.runDue)
            assert.match(second.answers()[0]!, /already approved; nothing changed/u)
            assert.strictEqual(
              (yield* SpendRequests.use((s) => s.get(team.id, undefined, pending.id))).status,
              "approved"
            )
          }),
        { ...testConfig, chatApiUrl: fake.apiUrl }
      )
    })
  )

  it.effect("in the running app, its own inbound worker decides the press after the acknowledgement", () =>
    Effect.gen(function* () {
      const fake = yield* ChatPlatformFake
      const { team, agent, approver } = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 5_000 } })
      const workspaceId = yield* installChat(team.id, approver.userId)
      fake.addUser("U-OWNER-LIVE", { email: "owner@example.com" })
      const pending = yield* spend(agent, 6_000)
      const approvalId = ApprovalId.make(pending.approval!.id)
      yield* withApp(
        baseEnv({ WEBHOOK_POLL_INTERVAL_MS: "20", CHAT_APPROVALS_INTERVAL_MS: "20" }),
        (app) =>
          Effect.gen(function* () {
            const response = fake.responseUrl()
            const signed = signedInteraction(
              SECRETS["chat-interactions"]!,
              buttonPress({
                workspaceId,
                user: "U-OWNER-LIVE",
                action: "approve",
                approvalId,
                responseUrl: response.url
              })
            )
            assert.deepStrictEqual((yield* post(app, INTERACTIONS, signed.body, signed.headers)).body, { ok: true })
            const answer = yield* Effect.promise(() => response.firstAnswer).pipe(Effect.timeout("10 seconds"))
            assert.strictEqual(answer, "You approved the request.")
            assert.strictEqual(
              (yield* SpendRequests.use((s) => s.get(team.id, undefined, pending.id))).status,
              "approved"
            )
          }),
        { ...testConfig, chatApiUrl: fake.apiUrl, chatApprovalsIntervalMs: 20 }
      )
    })
  )

  it.effect("a decision in the API updates the message; forged and stale presses are refused and stored nowhere", () =>
    Effect.gen(function* () {
      const fake = yield* ChatPlatformFake
      const { team, agent, approver } = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 5_000 } })
      const workspaceId = yield* installChat(team.id, approver.userId)
      const pending = yield* spend(agent, 6_000)
      const approvalId = ApprovalId.make(pending.approval!.id)
      yield* chatRound
      yield* withApp(
        env,
        (app) =>
          Effect.gen(function* () {
            const token = yield* Effect.promise(() => sessionToken({ id: approver.userId, email: "owner@example.com" }))
            const denied = yield* call(app, "POST", `/treasury/approvals/${approvalId}/deny`, token, {})
            assert.strictEqual(denied.status, 200, JSON.stringify(denied.body))
            yield* chatRound
            const [shown] = fake.messages(CHANNEL).filter((m) => m.metadata?.event_payload.approval_id === approvalId)
            assert.deepStrictEqual(buttonsOf(shown!.blocks), [])
            assert.match(shown!.text, /Denied by Owner/u)

            const interaction = buttonPress({
              workspaceId,
              user: "U-OWNER",
              action: "approve",
              approvalId,
              responseUrl: fake.responseUrl().url
            })
            const forged = signedInteraction("not-the-secret", interaction)
            const refused = yield* post(app, INTERACTIONS, forged.body, forged.headers)
            assert.strictEqual(refused.status, 400)
            assert.strictEqual(refused.body.error, "invalid_signature")
            const valid = signedInteraction(SECRETS["chat-interactions"]!, interaction)
            const tampered = yield* post(app, INTERACTIONS, valid.body.replace("approve", "deny"), valid.headers)
            assert.strictEqual(tampered.body.error, "invalid_signature")
            const stale = signedInteraction(
              SECRETS["chat-interactions"]!,
              interaction,
              Math.floor(Date.now() / 1000) - 3600
            )
            assert.strictEqual(
              (yield* post(app, INTERACTIONS, stale.body, stale.headers)).body.error,
              "stale_timestamp"
            )
            for (const body of [
              "payload=not-json",
              "other=1",
              `payload=${encodeURIComponent('{"type":"block_actions"}')}`
            ]) {
              const signed = signedBody(SECRETS["chat-interactions"]!, body)
              const unusable = yield* post(app, INTERACTIONS, signed.body, signed.headers)
              assert.strictEqual(unusable.status, 400, body)
              assert.strictEqual(unusable.body.error, "invalid_payload", body)
            }
            const duplicate = yield* recordPress(interaction.trigger_id, "processed")
            assert.isFalse(duplicate.duplicate, "nothing refused was stored")
          }),
        { ...testConfig, chatApiUrl: fake.apiUrl }
      )
    })
  )
})
