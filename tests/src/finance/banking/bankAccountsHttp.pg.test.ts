import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { bankAccountsHttpSuite } from "./BankAccountsHttpSuite.ts"

bankAccountsHttpSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
