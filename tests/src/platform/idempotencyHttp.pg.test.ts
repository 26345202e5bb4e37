import { clientForUrl, PortsPg } from "@svc/adapters-pg"
import { TestDatabase, TestDatabaseUrl } from "@svc/adapters-pg/testing"
import { Context, Effect, Layer, Redacted } from "effect"
import { domainOver } from "../ledger/LedgerSetup.ts"
import { Probe, ProbeAgents, type ProbeServices } from "../support/ProbeApi.ts"
import { idempotencySuite } from "./IdempotencyHttpSuite.ts"

const realPostgres = process.env.DATABASE_URL !== undefined

/** Another "process" on the same database: its own pool and services; the test's probe controls are shared. */
const secondInstance = Effect.gen(function* () {
  const shared = yield* Effect.context<ProbeServices>()
  if (!realPostgres) return shared
  const { url, pooler } = yield* TestDatabaseUrl
  const own = yield* Layer.build(
    domainOver(PortsPg.pipe(Layer.provideMerge(clientForUrl(Redacted.make(url), 4, pooler))))
  )
  return Context.merge(shared, own) as Context.Context<ProbeServices>
}).pipe(Effect.orDie)

idempotencySuite(
  realPostgres ? "real Postgres" : "embedded PGlite",
  Layer.mergeAll(Probe.layer, ProbeAgents.layer, domainOver(PortsPg.pipe(Layer.provideMerge(TestDatabase)))),
  {
    parallelTransactions: realPostgres,
    concurrentLocks: realPostgres,
    lockLabel: realPostgres ? "real Postgres" : "embedded PGlite, one connection",
    secondInstance: secondInstance as unknown as Effect.Effect<Context.Context<ProbeServices>, never, ProbeServices>
  }
)
