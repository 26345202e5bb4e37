import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { approvalsContract } from "./ApprovalsContract.ts"

approvalsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
