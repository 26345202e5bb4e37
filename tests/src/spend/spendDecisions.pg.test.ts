import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { spendDecisionsContract } from "./SpendDecisionsContract.ts"

spendDecisionsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
