import { Config, Context, Effect, Layer, Option } from "effect"
import { ChatInteractions, type InboundEndpoint, InboundEndpoints } from "./verify/Endpoints.ts"

/** Every inbound endpoint's configured secrets (read once from `WEBHOOK_SECRET_<NAME>` and friends; comma = rotation). */
export class InboundSecrets extends Context.Service<
  InboundSecrets,
  { readonly of: (endpoint: InboundEndpoint) => ReadonlyArray<string> }
>()("@svc/adapters-webhooks/InboundSecrets") {
  static readonly layer = Layer.effect(
    InboundSecrets,
    Effect.gen(function* () {
      const table = new Map<string, ReadonlyArray<string>>()
      for (const endpoint of [...InboundEndpoints, ChatInteractions]) {
        const raw = yield* Config.option(Config.String(endpoint.secretEnv))
        table.set(endpoint.name, endpoint.parseSecrets(Option.getOrUndefined(raw)))
      }
      return InboundSecrets.of({ of: (endpoint) => table.get(endpoint.name) ?? [] })
    })
  )
}
