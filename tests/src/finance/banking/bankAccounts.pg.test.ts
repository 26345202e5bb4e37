import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { bankAccountsContract } from "./BankAccountsContract.ts"

bankAccountsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
