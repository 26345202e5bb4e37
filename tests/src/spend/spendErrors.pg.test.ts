import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { spendErrorsContract } from "./SpendErrorsContract.ts"

spendErrorsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
