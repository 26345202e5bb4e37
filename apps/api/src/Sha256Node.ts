import { createHash } from "node:crypto"
import { Sha256 } from "@svc/domain"
import { Effect, Layer } from "effect"

/** The domain's SHA-256 by Node's native digest, answered synchronously: no promise, no worker-thread hop. */
export const Sha256Node = Layer.succeed(Sha256, (data: Uint8Array) =>
  Effect.sync(() => new Uint8Array(createHash("sha256").update(data).digest()))
)
