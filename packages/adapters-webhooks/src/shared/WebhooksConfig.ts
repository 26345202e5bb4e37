import { DeliveryConfig, InboundRetryConfig, WebhookDestinations, WebhookSecretKey } from "@svc/domain"
import { Context, Effect, Layer } from "effect"

/** What the webhooks adapter is configured with; the API reads it from its `WEBHOOK_*` and `INBOUND_*` variables. */
export class WebhooksSettings extends Context.Service<
  WebhooksSettings,
  {
    /** How failed inbound events are retried and how often the inbound worker polls. */
    readonly inbound: Context.Service.Shape<typeof InboundRetryConfig>
    /** How outbound deliveries are scheduled, timed out and leased. */
    readonly delivery: Context.Service.Shape<typeof DeliveryConfig>
    /** Development only: http and loopback, private or other non-public destinations allowed. */
    readonly allowPrivateDestinations: boolean
    /** The key webhook endpoint secrets are sealed under. */
    readonly secretKey: string
    /** Each inbound endpoint's configured secrets by the variable naming them (`InboundEndpoint.secretEnv`). */
    readonly inboundSecrets: Readonly<Record<string, string | undefined>>
    /** Whether this process runs the inbound and delivery workers. */
    readonly workers: boolean
  }
>()("@svc/adapters-webhooks/WebhooksSettings") {}

/** The domain's webhook settings (retry and delivery policies, destinations, the endpoint-secret key) from `WebhooksSettings`. */
export const WebhooksConfigLive = Layer.unwrap(
  Effect.gen(function* () {
    const settings = yield* WebhooksSettings
    return Layer.mergeAll(
      Layer.succeed(InboundRetryConfig, settings.inbound),
      Layer.succeed(DeliveryConfig, settings.delivery),
      Layer.succeed(WebhookDestinations, { allowPrivateDestinations: settings.allowPrivateDestinations }),
      Layer.succeed(WebhookSecretKey, settings.secretKey)
    )
  })
)
