import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { spendApprovalsContract } from "./SpendApprovalsContract.ts"

spendApprovalsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
