import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { backlogCountsContract } from "./BacklogCountsContract.ts"

backlogCountsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
