import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { ledgerPostingsContract } from "./LedgerPostingsContract.ts"

ledgerPostingsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
