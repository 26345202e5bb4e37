import { assert, describe, layer } from "@effect/vitest"
import { PortsMemory } from "@svc/adapters-memory"
import {
  type HostResolver,
  InboundRunner,
  InboundRunnerLive,
  WebhookHostResolver,
  WebhooksConfigLive
} from "@svc/adapters-webhooks"
import { webhooksSettings } from "@svc/api"
import { ApprovalId, SpendRequests } from "@svc/domain"
import { ConfigProvider, Effect, Layer, Logger } from "effect"
import { fundedAgent, spend } from "../spend/SpendSetup.ts"
import { baseEnv, post, SECRETS, withApp } from "../support/WebhooksHarness.ts"
import { chatDomainOver, installChat } from "./ChatApprovalsSetup.ts"
import { buttonPress, ChatPlatformFake, signedInteraction } from "./ChatPlatformFake.ts"

/** The host name the tests' resolver answers with the loopback address, and every name it was asked. */
const REBOUND_HOST = "hooks.chat.test"
const asked: Array<string> = []
const resolver: HostResolver = async (hostname) => {
  asked.push(hostname)
  return hostname === REBOUND_HOST ? [{ address: "127.0.0.1", family: 4 }] : []
}

/** The test's own inbound runner over the app's ports and the chat buttons, in production or development mode. */
const setup = (production: boolean) => {
  const env = baseEnv({
    WEBHOOK_WORKERS: "off",
    BACKGROUND_JOBS: "false",
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: String(!production)
  })
  return {
    env,
    layer: InboundRunnerLive.pipe(
      Layer.provideMerge(
        chatDomainOver(PortsMemory, { production }).pipe(Layer.provide(Layer.succeed(WebhookHostResolver, resolver)))
      ),
      Layer.provide(
        WebhooksConfigLive.pipe(
          Layer.provide(Layer.fresh(webhooksSettings)),
          Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))
        )
      )
    )
  }
}

/**
 * An owner presses Approve on a pending approval through a signed interaction whose `response_url` is the one `pick`
 * makes of the stand-in's own; the inbound worker's step runs. Answers the spend request's status, the log lines of
 * the step and what the stand-in received.
 */
const pressWith = (env: Record<string, string>, pick: (standIn: string) => string) =>
  Effect.gen(function* () {
    const fake = yield* ChatPlatformFake
    const { team, agent, approver } = yield* fundedAgent({ funds: 10_000, policy: { approvalThreshold: 5_000 } })
    const workspaceId = yield* installChat(team.id, approver.userId)
    const user = `U-${crypto.randomUUID()}`
    fake.addUser(user, { email: "owner@example.com" })
    const pending = yield* spend(agent, 6_000)
    const lines: Array<string> = []
    const capture = Logger.make((options) => {
      lines.push(Logger.formatJson.log(options))
    })
    const response = fake.responseUrl()
    yield* withApp(env, (app) =>
      Effect.gen(function* () {
        const interaction = buttonPress({
          workspaceId,
          user,
          action: "approve",
          approvalId: ApprovalId.make(pending.approval!.id),
          responseUrl: pick(response.url)
        })
        const signed = signedInteraction(SECRETS["chat-interactions"]!, interaction)
        const ack = yield* post(app, "/apps/chat/interactions", signed.body, signed.headers)
        assert.deepStrictEqual(ack.body, { ok: true })
        yield* InboundRunner.use((r) => r.runDue).pipe(Effect.provide(Logger.layer([capture])))
      })
    )
    const status = (yield* SpendRequests.use((s) => s.get(team.id, undefined, pending.id))).status
    return { status, lines, answers: response.answers() }
  })

const refusalIn = (lines: ReadonlyArray<string>) =>
  lines.find((line) => line.includes("the answer to a chat interaction could not be sent"))

describe("answers to chat interactions go where webhook deliveries may go", () => {
  const production = setup(true)
  layer(production.layer, { timeout: "120 seconds", excludeTestServices: true })("in production", (it) => {
    it.effect("a response_url at a loopback address is never posted to, and the refusal is logged", () =>
      Effect.gen(function* () {
        const fake = yield* ChatPlatformFake
        const pressed = yield* pressWith(production.env, (standIn) => standIn)
        assert.strictEqual(pressed.status, "approved", "the press is decided; only its private answer is withheld")
        assert.deepStrictEqual(pressed.answers, [])
        assert.deepStrictEqual(fake.requests("respond"), [], "the loopback stand-in never receives a request")
        assert.include(refusalIn(pressed.lines), "destination_not_allowed", pressed.lines.join("\n"))
      })
    )

    it.effect("a response_url whose host name resolves to a loopback address is refused without connecting", () =>
      Effect.gen(function* () {
        const fake = yield* ChatPlatformFake
        const pressed = yield* pressWith(production.env, (standIn) => {
          const url = new URL(standIn)
          url.protocol = "https:"
          url.hostname = REBOUND_HOST
          return url.toString()
        })
        assert.strictEqual(pressed.status, "approved")
        assert.include(asked, REBOUND_HOST, "the host name was resolved and its address checked")
        assert.deepStrictEqual(fake.requests("respond"), [])
        assert.include(refusalIn(pressed.lines), "destination_not_allowed", pressed.lines.join("\n"))
      })
    )
  })

  const development = setup(false)
  layer(development.layer, { timeout: "120 seconds", excludeTestServices: true })("in development", (it) => {
    it.effect("with private destinations allowed, the loopback stand-in receives the answer", () =>
      Effect.gen(function* () {
        const pressed = yield* pressWith(development.env, (standIn) => standIn)
        assert.strictEqual(pressed.status, "approved")
        assert.deepStrictEqual(pressed.answers, ["You approved the request."])
        assert.isUndefined(refusalIn(pressed.lines))
      })
    )
  })
})
