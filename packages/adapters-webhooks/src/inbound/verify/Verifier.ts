import type { Effect } from "effect"
import type { WebhookSignatureError } from "./WebhookSignatureError.ts"

/** The raw inbound request as a verifier sees it; header names are lower case. */
export interface WebhookRequest {
  readonly body: Uint8Array
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly remoteAddress?: string
}

/** Proves a request came from the provider holding one of `secrets`, judged at `nowSeconds`. */
export type Verifier = (
  request: WebhookRequest,
  secrets: ReadonlyArray<string>,
  nowSeconds: number
) => Effect.Effect<void, WebhookSignatureError>
