import { type DesktopRelease, desktopBuild, desktopUpdate } from "@svc/domain"
import { Context, Effect, Option } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { notFound } from "../../api/shared/index.ts"

/** The latest desktop release, when one is configured; the composition root supplies it. */
export class DesktopReleases extends Context.Service<DesktopReleases, Option.Option<DesktopRelease>>()(
  "@svc/adapters-http/DesktopReleases"
) {}

export const DesktopHttp = HttpApiBuilder.group(Api, "desktop", (handlers) =>
  Effect.gen(function* () {
    const release = yield* DesktopReleases
    return handlers
      .handle("update", ({ params }) =>
        Effect.succeed(
          Option.getOrUndefined(
            Option.flatMap(release, (latest) =>
              desktopUpdate(latest, params.target, params.arch, params.currentVersion)
            )
          )
        )
      )
      .handleRaw("download", ({ params }) =>
        Option.match(
          Option.flatMap(release, (latest) => desktopBuild(latest, params.target, params.arch)),
          {
            onNone: () => Effect.fail(notFound(`no desktop build for ${params.target}-${params.arch}`)),
            onSome: (build) => Effect.succeed(HttpServerResponse.redirect(build.url, { status: 302 }))
          }
        )
      )
  })
)
