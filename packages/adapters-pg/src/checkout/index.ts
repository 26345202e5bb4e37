import { Layer } from "effect"
import { CardAuthorizationsRepoPg } from "./CardAuthorizationsRepoPg.ts"
import { CardsRepoPg } from "./CardsRepoPg.ts"
import { CheckoutIntentsRepoPg } from "./CheckoutIntentsRepoPg.ts"

export * from "./CardAuthorizationsRepoPg.ts"
export * from "./CardsRepoPg.ts"
export * from "./CheckoutIntentsRepoPg.ts"

/** The checkout context's ports on Postgres. */
export const CheckoutPortsPg = Layer.mergeAll(CheckoutIntentsRepoPg, CardsRepoPg, CardAuthorizationsRepoPg)
