import { ApiRoutes, PublicBaseUrl, Readiness, SessionTokens } from "@svc/adapters-http"
import { PortsPg } from "@svc/adapters-pg"
import {
  AgentCredentials,
  FileKeys,
  Ledger,
  type LedgerRepo,
  TeamCredentials,
  Teams,
  type TeamsRepo,
  type Transactor,
  Users,
  type UsersRepo
} from "@svc/domain"
import { PortsMemory } from "@svc/domain/memory"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"

/** What the service reads from its environment. */
export interface ServiceConfig {
  readonly sessionJwtSecret: Redacted.Redacted
  readonly fileKeySecret: Redacted.Redacted
  readonly publicBaseUrl: string
}

/** Reads the service configuration; a missing SESSION_JWT_SECRET gets a random one (sessions then die with the process). */
export const serviceConfig = Effect.gen(function* () {
  const port = yield* Config.Port("PORT").pipe(Config.withDefault(3000))
  const configured = yield* Config.option(Config.Redacted("SESSION_JWT_SECRET"))
  if (Option.isNone(configured)) {
    yield* Effect.logWarning(
      "SESSION_JWT_SECRET is unset: using a random secret, so session tokens cannot be minted outside"
    )
  }
  const sessionJwtSecret = Option.getOrElse(configured, () => Redacted.make(crypto.randomUUID() + crypto.randomUUID()))
  const fileKeySecret = yield* Config.Redacted("FILE_KEY_SECRET").pipe(Config.withDefault(sessionJwtSecret))
  const publicBaseUrl = yield* Config.String("PUBLIC_BASE_URL").pipe(Config.withDefault(`http://localhost:${port}`))
  return { sessionJwtSecret, fileKeySecret, publicBaseUrl: publicBaseUrl.replace(/\/+$/u, "") } satisfies ServiceConfig
})

type Ports = Transactor | UsersRepo | TeamsRepo | LedgerRepo

const NoAgentCredentials = Layer.succeed(AgentCredentials, { authenticate: () => Effect.succeed(Option.none()) })
const NoTeamCredentials = Layer.succeed(TeamCredentials, { authenticate: () => Effect.succeed(Option.none()) })

/** The domain services over a set of ports. */
const domain = <E, R>(ports: Layer.Layer<Ports, E, R>) =>
  Layer.mergeAll(Users.layer, Teams.layer, NoAgentCredentials, NoTeamCredentials).pipe(
    Layer.provideMerge(Ledger.layer),
    Layer.provideMerge(ports)
  )

/** The HTTP application over the given ports and readiness check. */
export const appLayer = <E, R, R2>(
  config: ServiceConfig,
  ports: Layer.Layer<Ports, E, R>,
  readiness: Layer.Layer<Readiness, never, R2>
) =>
  ApiRoutes.pipe(
    Layer.provide(domain(ports)),
    Layer.provide([
      SessionTokens.layer(config.sessionJwtSecret),
      FileKeys.layer(Redacted.value(config.fileKeySecret)),
      Layer.succeed(PublicBaseUrl, config.publicBaseUrl),
      readiness
    ])
  )

/** Readiness over SQL: the database answers `SELECT 1` within two seconds. */
export const SqlReadiness = Layer.effect(
  Readiness,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return Readiness.of({
      check: sql`SELECT 1`.pipe(
        Effect.timeout("2 seconds"),
        Effect.as(true),
        Effect.orElseSucceed(() => false)
      )
    })
  })
)

/** The application on Postgres (needs a SqlClient). */
export const appOnPostgres = (config: ServiceConfig) => appLayer(config, PortsPg, SqlReadiness)

/** The application on the in-memory adapters: no database at all (tests, demos). */
export const appInMemory = (config: ServiceConfig) =>
  appLayer(config, PortsMemory, Layer.succeed(Readiness, { check: Effect.succeed(true) }))
