import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { ledgerContract } from "./LedgerContract.ts"

ledgerContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
