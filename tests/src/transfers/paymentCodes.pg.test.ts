import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { paymentCodesContract } from "./PaymentCodesContract.ts"

paymentCodesContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
