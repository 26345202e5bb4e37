import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ServiceUnavailable } from "../shared/index.ts"

/** Liveness and readiness. */
export class SystemApi extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/health", { success: Schema.Struct({ status: Schema.Literal("ok") }) })
      .annotate(OpenApi.Summary, "Check liveness")
      .annotate(OpenApi.Description, "Liveness: the process is up."),
    HttpApiEndpoint.get("ready", "/health/ready", {
      success: Schema.Struct({ status: Schema.Literal("ready") }),
      error: ServiceUnavailable
    })
      .annotate(OpenApi.Summary, "Check readiness")
      .annotate(OpenApi.Description, "Readiness: the database answers. 503 while it does not.")
  )
  .annotate(OpenApi.Description, "Service health") {}
