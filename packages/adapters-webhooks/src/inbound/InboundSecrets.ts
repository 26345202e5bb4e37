import { Context, Effect, Layer } from "effect"
import { WebhooksSettings } from "../shared/index.ts"
import { ChatInteractions, type InboundEndpoint, InboundEndpoints, secretsFromEnv } from "./verify/Endpoints.ts"

/** Every inbound endpoint's configured secrets (`WebhooksSettings.inboundSecrets`, by variable; comma = rotation). */
export class InboundSecrets extends Context.Service<
  InboundSecrets,
  { readonly of: (endpoint: InboundEndpoint) => ReadonlyArray<string> }
>()("@svc/adapters-webhooks/InboundSecrets") {
  static readonly layer = Layer.effect(
    InboundSecrets,
    Effect.gen(function* () {
      const { inboundSecrets } = yield* WebhooksSettings
      const table = new Map<string, ReadonlyArray<string>>()
      for (const endpoint of [...InboundEndpoints, ChatInteractions]) {
        table.set(endpoint.name, secretsFromEnv(endpoint, inboundSecrets))
      }
      return InboundSecrets.of({ of: (endpoint) => table.get(endpoint.name) ?? [] })
    })
  )
}
