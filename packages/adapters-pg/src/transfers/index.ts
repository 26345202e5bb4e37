import { Layer } from "effect"
import { PaymentCodesRepoPg } from "./PaymentCodesRepoPg.ts"
import { TransfersRepoPg } from "./TransfersRepoPg.ts"

export * from "./PaymentCodesRepoPg.ts"
export * from "./TransfersRepoPg.ts"

/** The transfers context's ports on Postgres. */
export const TransfersPortsPg = Layer.mergeAll(PaymentCodesRepoPg, TransfersRepoPg)
