import { Clock, Context, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { DependenciesUnhealthy } from "../../api/platform/index.ts"
import { serviceUnavailable } from "../../api/shared/index.ts"

/** One dependency of the service: its public name and its check (true when it answers). */
export interface Dependency {
  readonly name: string
  readonly check: Effect.Effect<boolean>
}

/** The service's dependencies, each with its check; the composition root supplies them. */
export class Readiness extends Context.Service<Readiness, { readonly dependencies: ReadonlyArray<Dependency> }>()(
  "@svc/adapters-http/Readiness"
) {}

const timed = (dependency: Dependency) =>
  Effect.gen(function* () {
    const started = yield* Clock.currentTimeMillis
    const healthy = yield* dependency.check
    const latencyMs = Math.max(0, Math.round((yield* Clock.currentTimeMillis) - started))
    return { name: dependency.name, healthy, latencyMs }
  })

export const SystemHttp = HttpApiBuilder.group(Api, "system", (handlers) =>
  Effect.gen(function* () {
    const { dependencies } = yield* Readiness
    const reports = Effect.forEach(dependencies, timed, { concurrency: "unbounded" })
    return handlers
      .handle("health", () => Effect.succeed({ status: "ok" as const }))
      .handle("ready", () =>
        Effect.forEach(dependencies, (d) => d.check, { concurrency: "unbounded" }).pipe(
          Effect.flatMap((answers) =>
            answers.every(Boolean) ? Effect.succeed({ status: "ready" as const }) : Effect.fail(serviceUnavailable())
          )
        )
      )
      .handle("dependencies", () =>
        Effect.gen(function* () {
          const checked = yield* reports
          const timestamp = new Date(yield* Clock.currentTimeMillis).toISOString()
          if (checked.every((d) => d.healthy)) return { status: "ok" as const, timestamp, dependencies: checked }
          const down = checked.filter((d) => !d.healthy).map((d) => d.name)
          return yield* new DependenciesUnhealthy({
            error: "service_unavailable",
            code: 503,
            message: `not answering: ${down.join(", ")}`,
            status: "unhealthy",
            timestamp,
            dependencies: checked
          })
        })
      )
  })
)
