import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { transactorContract } from "./TransactorContract.ts"

transactorContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
