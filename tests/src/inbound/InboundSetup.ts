import { layer } from "@effect/vitest"
import { InboundRunnerLive, WebhooksConfigLive } from "@svc/adapters-webhooks"
import { Ledger } from "@svc/domain"
import { ConfigProvider, Effect, Layer } from "effect"
import { baseEnv, type RunningApp, serveApp, type WebhookPorts } from "../support/WebhooksHarness.ts"

/** The path an inbound endpoint is served on. */
export const pathOf = (name: string) => (name === "chat-interactions" ? "/apps/chat/interactions" : `/webhook/${name}`)

/** A test app's environment: its inbound worker is off, so the tests run the worker's step themselves. */
export const appEnv = (overrides: Record<string, string | undefined> = {}) =>
  baseEnv({ WEBHOOK_WORKERS: "off", ...overrides })

/** The inbound runner and the ledger over `ports`, shared by a suite's tests, whose apps run on the same ports. */
export const inboundOver = <E>(ports: Layer.Layer<WebhookPorts, E>) =>
  layer(
    InboundRunnerLive.pipe(
      Layer.provideMerge(Ledger.layer.pipe(Layer.provideMerge(ports))),
      Layer.provide(WebhooksConfigLive.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(appEnv())))))
    ),
    { timeout: "120 seconds", excludeTestServices: true }
  )

/** Runs `f` against an app served over the test's context with `env`, stopped when `f` ends. */
export const withApp = <A, E2, R>(env: Record<string, string>, f: (app: RunningApp) => Effect.Effect<A, E2, R>) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<never>()
    const app = yield* serveApp(context, env)
    return yield* f(app)
  }).pipe(Effect.scoped)
