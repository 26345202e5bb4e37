import { assert } from "@effect/vitest"
import { Readiness } from "@svc/adapters-http"
import { appLayer, type Ports, type ServiceConfig, signInSettings } from "@svc/api"
import { DashboardSignIn, Mailer, type MailMessage } from "@svc/domain"
import { Clock, ConfigProvider, Effect, Layer, Ref, Tracer } from "effect"
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

/** A tracer that keeps the SQL text of every statement run while `during` records. */
const sqlRecorder = () => {
  let recording: Array<Tracer.Span> | undefined
  const tracer = Tracer.make({
    span: (options) => {
      const span = Tracer.nativeTracer.span(options)
      recording?.push(span)
      return span
    }
  })
  const during = async (f: () => Promise<unknown>) => {
    const spans: Array<Tracer.Span> = []
    recording = spans
    try {
      await f()
    } finally {
      recording = undefined
    }
    return spans.flatMap((span) => {
      const text = span.attributes.get("db.query.text")
      return typeof text === "string" ? [text] : []
    })
  }
  return { tracer, during }
}

/** What a sign-in test drives: the app, the mail it sent, and its clock. */
export interface SignInApp {
  readonly call: (
    method: string,
    path: string,
    options?: { readonly token?: string; readonly body?: unknown; readonly headers?: Record<string, string> }
  ) => Promise<Answer>
  readonly handler: (request: Request) => Promise<Response>
  /** Runs the sign-in pass (the app's background jobs are off): the links asked for so far are mailed. */
  readonly sendLinks: () => Promise<number>
  readonly mail: () => ReadonlyArray<MailMessage>
  readonly advance: (ms: number) => void
  /** The SQL statements the app ran while `f` ran, in order (none on the in-memory adapters). */
  readonly sqlDuring: (f: () => Promise<unknown>) => Promise<ReadonlyArray<string>>
}

/**
 * Runs `f` against the whole app in process over the ports in context (with `config` over the test configuration),
 * mailing through a recorder, reading time from a clock `f` moves forward, and with its background jobs off: the test
 * runs the sign-in pass itself.
 */
export const withSignInApp = (config: Partial<ServiceConfig>, f: (app: SignInApp) => Promise<void>) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<Ports>()
    const sent = yield* Ref.make<ReadonlyArray<MailMessage>>([])
    const { clock, advance } = offsetClock(yield* Clock.Clock)
    const sql = sqlRecorder()
    const fullConfig = { ...testConfig, ...config }
    const services = Layer.mergeAll(
      Layer.succeed(Mailer, { send: (message) => Ref.update(sent, (all) => [...all, message]), localDelivery: null }),
      Layer.succeed(Clock.Clock, clock),
      Layer.succeed(Tracer.Tracer, sql.tracer)
    )
    const app = appLayer(
      fullConfig,
      Layer.succeedContext(context),
      Layer.succeed(Readiness, { dependencies: [{ name: "database", check: Effect.succeed(true) }] })
    ).pipe(
      Layer.provide(HttpServer.layerServices),
      Layer.provide(services),
      Layer.provide(
        ConfigProvider.layerAdd(ConfigProvider.fromUnknown({ BACKGROUND_JOBS: "false" }), { asPrimary: true })
      )
    )
    const { handler, dispose } = HttpRouter.toWebHandler(app, { disableLogger: true })
    yield* Effect.addFinalizer(() => Effect.promise(() => dispose()))
    const { call } = clientOf(handler)
    const pass = DashboardSignIn.use((signIn) => signIn.sendRequestedLinks).pipe(
      Effect.provide(DashboardSignIn.layer(signInSettings(fullConfig))),
      Effect.provide(services),
      Effect.provideContext(context)
    )
    yield* Effect.promise(() =>
      f({
        call,
        handler,
        sendLinks: () => Effect.runPromise(pass),
        mail: () => Effect.runSync(Ref.get(sent)),
        advance,
        sqlDuring: sql.during
      })
    )
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
