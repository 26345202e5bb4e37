import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { checkoutContract } from "./CheckoutContract.ts"

checkoutContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
