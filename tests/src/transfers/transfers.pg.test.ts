import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { transfersContract } from "./TransfersContract.ts"

transfersContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
