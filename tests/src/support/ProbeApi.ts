import {
  AgentAuth,
  CommonErrors,
  Conflict,
  CurrentAgent,
  conflict,
  ErrorHandlingLive,
  IdempotencyKeyRequired,
  IdempotencyLive,
  Idempotent,
  NotFound,
  notFound,
  RequestValidation,
  serviceUnavailable,
  unauthorized
} from "@svc/adapters-http"
import {
  type AccountId,
  type AgentPrincipal,
  type IdempotencyStore,
  Ledger,
  type TeamId,
  TeamOpening,
  type Transactor,
  type UserId
} from "@svc/domain"
import { Context, Deferred, Effect, Layer, Redacted, Ref, Schema } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"

/**
 * A test-only /v1 API over the real Idempotent middleware: each POST deposits into the agent's account (a real
 * ledger write inside the request's transaction) and then answers as the body's `outcome` asks.
 */
const Outcome = Schema.Literals(["ok", "not_found", "conflict"])

const DepositBody = Schema.Struct({ amount: Schema.Int, outcome: Schema.optionalKey(Outcome) })

const DepositResult = Schema.Struct({ ledgerTransactionId: Schema.String, amount: Schema.Int, posted: Schema.Int })

const endpoint = <const Name extends string, const Path extends `/${string}`>(name: Name, path: Path) =>
  HttpApiEndpoint.post(name, path, {
    payload: DepositBody,
    success: DepositResult.pipe(HttpApiSchema.status(201)),
    error: [...CommonErrors, NotFound, Conflict]
  })

class ProbeGroup extends HttpApiGroup.make("probe")
  .add(endpoint("required", "/v1/probe/required").annotate(IdempotencyKeyRequired, true))
  .add(endpoint("optional", "/v1/probe/optional"))
  .add(endpoint("other", "/v1/probe/other"))
  .middleware(Idempotent)
  .middleware(AgentAuth) {}

class ProbeApi extends HttpApi.make("probe")
  .add(ProbeGroup)
  .middleware(RequestValidation)
  .annotate(HttpApi.PayloadParseOptions, { errors: "all", onExcessProperty: "error" }) {}

/** What the next handler run does after its write: fail with a 503, die (a 500), or wait for `release`. */
export type Sabotage = "none" | "unavailable" | "die" | "hang"

/** Controls and observes the probe handler from a test. */
export class Probe extends Context.Service<
  Probe,
  {
    readonly next: Ref.Ref<Sabotage>
    readonly runs: Ref.Ref<number>
    readonly entered: Ref.Ref<Deferred.Deferred<void>>
    readonly release: Ref.Ref<Deferred.Deferred<void>>
  }
>()("tests/Probe") {
  static readonly layer = Layer.effect(
    Probe,
    Effect.gen(function* () {
      return Probe.of({
        next: yield* Ref.make<Sabotage>("none"),
        runs: yield* Ref.make(0),
        entered: yield* Ref.make(yield* Deferred.make<void>()),
        release: yield* Ref.make(yield* Deferred.make<void>())
      })
    })
  )
}

/** Credentials the probe's AgentAuth accepts: raw token to agent. */
export class ProbeAgents extends Context.Service<ProbeAgents, Ref.Ref<ReadonlyMap<string, AgentPrincipal>>>()(
  "tests/ProbeAgents"
) {
  static readonly layer = Layer.effect(ProbeAgents, Ref.make<ReadonlyMap<string, AgentPrincipal>>(new Map()))
}

const ProbeAuth = Layer.effect(
  AgentAuth,
  Effect.gen(function* () {
    const agents = yield* ProbeAgents
    return AgentAuth.of({
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function* () {
          const agent = (yield* Ref.get(agents)).get(Redacted.value(credential))
          if (agent === undefined) return yield* unauthorized()
          return yield* Effect.provideService(httpEffect, CurrentAgent, agent)
        })
    })
  })
)

const ProbeHttp = HttpApiBuilder.group(ProbeApi, "probe", (handlers) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const probe = yield* Probe

    const handler = (payload: typeof DepositBody.Type) =>
      Effect.gen(function* () {
        const agent = yield* CurrentAgent
        yield* Ref.update(probe.runs, (n) => n + 1)
        const accountId = agent.accountId as AccountId
        const tx = yield* ledger
          .deposit({
            teamId: agent.teamId,
            mode: agent.mode,
            accountId,
            amount: payload.amount,
            currency: "USD",
            reference: crypto.randomUUID()
          })
          .pipe(Effect.orDie)
        const sabotage = yield* Ref.getAndSet(probe.next, "none")
        if (sabotage === "unavailable") return yield* serviceUnavailable()
        if (sabotage === "die") return yield* Effect.die(new Error("boom after the write"))
        if (sabotage === "hang") {
          yield* Deferred.succeed(yield* Ref.get(probe.entered), undefined)
          yield* Deferred.await(yield* Ref.get(probe.release))
        }
        if (payload.outcome === "not_found") return yield* notFound("no such thing")
        if (payload.outcome === "conflict")
          return yield* conflict("probe_conflict", "the probe is in a conflicting state")
        const account = yield* ledger.account(agent.teamId, accountId).pipe(Effect.orDie)
        return { ledgerTransactionId: tx.id, amount: payload.amount, posted: account.balance.posted }
      })

    return handlers
      .handle("required", ({ payload }) => handler(payload))
      .handle("optional", ({ payload }) => handler(payload))
      .handle("other", ({ payload }) => handler(payload))
  })
)

/** The probe routes with the real Idempotent middleware and JSON error handling; needs the domain and the probe. */
const probeRoutes = HttpApiBuilder.layer(ProbeApi).pipe(
  Layer.provide(ProbeHttp),
  Layer.provide([ProbeAuth, IdempotencyLive]),
  Layer.provide(ErrorHandlingLive)
)

/** What the probe routes need from the shared context. */
export type ProbeServices = IdempotencyStore | Ledger | Probe | ProbeAgents | Transactor

/** One "process": the probe routes as a fetch handler over an already built context (ports, domain, probe). */
export const instanceOver = (context: Context.Context<ProbeServices>) =>
  Effect.acquireRelease(
    Effect.sync(() =>
      HttpRouter.toWebHandler(
        probeRoutes.pipe(Layer.provide(Layer.succeedContext(context)), Layer.provide(HttpServer.layerServices)),
        { disableLogger: true }
      )
    ),
    ({ dispose }) => Effect.promise(dispose)
  )

/** A team with an owner, and an agent (spending key shape) on its test account, registered under `token`. */
export const newAgent = (token: string) =>
  Effect.gen(function* () {
    const opening = yield* TeamOpening
    const ledger = yield* Ledger
    const owner = { id: crypto.randomUUID() as UserId, email: "owner@example.com", fullName: "Owner" }
    const team = yield* opening.open(owner, { name: "Probe team" })
    const account = (yield* ledger.accounts(team.id as TeamId, { kind: "spend", mode: "test" }))[0]!
    const agent: AgentPrincipal = {
      kind: "spending_key",
      keyId: crypto.randomUUID(),
      teamId: team.id,
      mode: "test",
      accountId: account.id,
      scopes: null,
      policy: {}
    }
    const agents = yield* ProbeAgents
    yield* Ref.update(agents, (map) => new Map([...map, [token, agent]]))
    return agent
  })

/** The posted balance of an agent's account. */
export const postedOf = (agent: AgentPrincipal) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    return (yield* ledger.account(agent.teamId, agent.accountId as AccountId)).balance.posted
  })
