import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { paymentCodeTransfersContract } from "./PaymentCodeTransfersContract.ts"

paymentCodeTransfersContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
