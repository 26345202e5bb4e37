import { assert } from "@effect/vitest"
import { Readiness } from "@svc/adapters-http"
import { appLayer, type Ports, type ServiceConfig } from "@svc/api"
import { Mailer, type MailMessage } from "@svc/domain"
import { Clock, Effect, Layer, Ref } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import type { Answer } from "../support/InProcessApp.ts"
import { clientOf, testConfig } from "../support/InProcessApp.ts"

/** A clock that reads the real time plus an offset the test moves forward. */
const offsetClock = (real: Clock.Clock) => {
  let offsetMs = 0
  const millis = () => real.currentTimeMillisUnsafe() + offsetMs
  const clock: Clock.Clock = {
    currentTimeMillisUnsafe: millis,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanosUnsafe: () => BigInt(millis()) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(millis()) * 1_000_000n),
    monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: real.monotonicTimeNanos,
    sleep: (duration) => real.sleep(duration)
  }
  const advance = (ms: number) => {
    offsetMs += ms
  }
  return { clock, advance }
}

/** What a sign-in test drives: the app, the mail it sent, and its clock. */
export interface SignInApp {
  readonly call: (
    method: string,
    path: string,
    options?: { readonly token?: string; readonly body?: unknown; readonly headers?: Record<string, string> }
  ) => Promise<Answer>
  readonly handler: (request: Request) => Promise<Response>
  readonly mail: () => ReadonlyArray<MailMessage>
  readonly advance: (ms: number) => void
}

/**
 * Runs `f` against the whole app in process over the ports in context (with `config` over the test configuration),
 * mailing through a recorder and reading time from a clock `f` moves forward.
 */
export const withSignInApp = (config: Partial<ServiceConfig>, f: (app: SignInApp) => Promise<void>) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<Ports>()
    const sent = yield* Ref.make<ReadonlyArray<MailMessage>>([])
    const { clock, advance } = offsetClock(yield* Clock.Clock)
    const app = appLayer(
      { ...testConfig, ...config },
      Layer.succeedContext(context),
      Layer.succeed(Readiness, { check: Effect.succeed(true) })
    ).pipe(
      Layer.provide(HttpServer.layerServices),
      Layer.provide(Layer.succeed(Mailer, { send: (message) => Ref.update(sent, (all) => [...all, message]) })),
      Layer.provide(Layer.succeed(Clock.Clock, clock))
    )
    const { handler, dispose } = HttpRouter.toWebHandler(app, { disableLogger: true })
    yield* Effect.addFinalizer(() => Effect.promise(() => dispose()))
    const { call } = clientOf(handler)
    yield* Effect.promise(() => f({ call, handler, mail: () => Effect.runSync(Ref.get(sent)), advance }))
  }).pipe(Effect.scoped)

/** The sign-in token in the last message mailed to `email` (from the link's fragment). */
export const linkTokenMailedTo = (mail: ReadonlyArray<MailMessage>, email: string, baseUrl: string) => {
  const message = mail.findLast((m) => m.to === email)
  assert.isDefined(message, `no mail to ${email}`)
  const match = new RegExp(
    `${baseUrl.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")}/dashboard/sign-in#token=([A-Za-z0-9_-]{43})`,
    "u"
  ).exec(message.text)
  assert.isNotNull(match, message.text)
  return match?.[1] ?? ""
}

/** The `svc_session` Set-Cookie header of an answer. */
export const sessionSetCookie = (answer: Answer) => {
  const header = answer.headers.getSetCookie().find((c) => c.startsWith("svc_session="))
  assert.isDefined(header, `no svc_session cookie in ${JSON.stringify([...answer.headers])}`)
  return header ?? ""
}

/** The `Cookie` request header carrying the session of a Set-Cookie header. */
export const cookieOf = (setCookie: string) => ({ cookie: setCookie.split(";")[0] ?? "" })
