import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { spendContract } from "./SpendContract.ts"
import { spendErrorsContract } from "./SpendErrorsContract.ts"

spendContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
spendErrorsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
