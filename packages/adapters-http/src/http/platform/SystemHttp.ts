import { Context, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { serviceUnavailable } from "../../api/shared/index.ts"

/** Whether the service's dependencies answer; the composition root supplies it. */
export class Readiness extends Context.Service<Readiness, { readonly check: Effect.Effect<boolean> }>()(
  "@svc/adapters-http/Readiness"
) {}

export const SystemHttp = HttpApiBuilder.group(Api, "system", (handlers) =>
  Effect.gen(function* () {
    const readiness = yield* Readiness
    return handlers
      .handle("health", () => Effect.succeed({ status: "ok" as const }))
      .handle("ready", () =>
        readiness.check.pipe(
          Effect.flatMap((ok) =>
            ok ? Effect.succeed({ status: "ready" as const }) : Effect.fail(serviceUnavailable())
          )
        )
      )
  })
)
