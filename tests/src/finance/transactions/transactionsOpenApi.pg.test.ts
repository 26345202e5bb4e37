import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { transactionsOpenApiSuite } from "./TransactionsOpenApiSuite.ts"

transactionsOpenApiSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
