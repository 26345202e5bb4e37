import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { spendContract } from "./SpendContract.ts"

spendContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
