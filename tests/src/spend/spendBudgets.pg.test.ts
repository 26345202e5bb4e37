import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { spendBudgetsContract } from "./SpendBudgetsContract.ts"

spendBudgetsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
