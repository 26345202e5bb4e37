import { Layer } from "effect"
import { PaymentCodesRepoPg } from "./PaymentCodesRepoPg.ts"
import { ReceiveHandlesRepoPg } from "./ReceiveHandlesRepoPg.ts"
import { TransfersRepoPg } from "./TransfersRepoPg.ts"

export * from "./PaymentCodesRepoPg.ts"
export * from "./ReceiveHandlesRepoPg.ts"
export * from "./TransfersRepoPg.ts"

/** The transfers context's ports on Postgres. */
export const TransfersPortsPg = Layer.mergeAll(PaymentCodesRepoPg, ReceiveHandlesRepoPg, TransfersRepoPg)
