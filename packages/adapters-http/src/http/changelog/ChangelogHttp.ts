import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { CHANGELOG } from "../../api/changelog/index.ts"

export const ChangelogHttp = HttpApiBuilder.group(Api, "changelog", (handlers) =>
  Effect.succeed(handlers.handle("list", () => Effect.succeed({ entries: CHANGELOG })))
)
