import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { transactionsHttpSuite } from "./TransactionsHttpSuite.ts"

transactionsHttpSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
