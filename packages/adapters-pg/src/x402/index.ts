import { Layer } from "effect"
import { X402PaymentsRepoPg } from "./X402PaymentsRepoPg.ts"
import { X402WalletsRepoPg } from "./X402WalletsRepoPg.ts"

export * from "./X402PaymentsRepoPg.ts"
export * from "./X402WalletsRepoPg.ts"

/** The x402 context's storage ports on Postgres (the signer and the chain are not storage). */
export const X402PortsPg = Layer.merge(X402PaymentsRepoPg, X402WalletsRepoPg)
