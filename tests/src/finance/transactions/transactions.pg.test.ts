import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { transactionsContract } from "./TransactionsContract.ts"

transactionsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
