import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ServiceUnavailable } from "../shared/index.ts"

/** One dependency as GET /health/dependencies reports it: its name, whether it answered, and how fast. */
export const DependencyReport = Schema.Struct({
  name: Schema.String,
  healthy: Schema.Boolean,
  latencyMs: Schema.Int
})
export type DependencyReport = typeof DependencyReport.Type

const dependenciesReport = <S extends "ok" | "unhealthy">(status: S) => ({
  status: Schema.Literal(status),
  timestamp: Schema.String,
  dependencies: Schema.Array(DependencyReport)
})

/** 503 of GET /health/dependencies: the error body of every 503 with the report of each dependency. */
export class DependenciesUnhealthy extends Schema.Error<DependenciesUnhealthy>("DependenciesUnhealthy")(
  {
    error: Schema.Literal("service_unavailable"),
    code: Schema.Literal(503),
    message: Schema.String,
    ...dependenciesReport("unhealthy")
  },
  { httpApiStatus: 503, description: "A dependency does not answer; the report names it" }
) {}

/** Liveness and readiness. */
export class SystemApi extends HttpApiGroup.make("system").add(
  HttpApiEndpoint.get("health", "/health", { success: Schema.Struct({ status: Schema.Literal("ok") }) })
    .annotate(OpenApi.Summary, "Check liveness")
    .annotate(OpenApi.Description, "Liveness: the process is up."),
  HttpApiEndpoint.get("ready", "/health/ready", {
    success: Schema.Struct({ status: Schema.Literal("ready") }),
    error: ServiceUnavailable
  })
    .annotate(OpenApi.Summary, "Check readiness")
    .annotate(OpenApi.Description, "Readiness: the database answers. 503 while it does not."),
  HttpApiEndpoint.get("dependencies", "/health/dependencies", {
    success: Schema.Struct(dependenciesReport("ok")),
    error: DependenciesUnhealthy
  })
    .annotate(OpenApi.Summary, "Check each dependency")
    .annotate(
      OpenApi.Description,
      "Each dependency the service needs to answer (`database`: the schema is migrated and a query answers within " +
        "two seconds; `memory` when the service runs without one) with whether it is healthy and the milliseconds " +
        "its check took. 200 `status: ok` when all are; else 503 with the error body of a 503 and the same report. " +
        "No address, version or error text of a dependency is shown."
    )
) {}
