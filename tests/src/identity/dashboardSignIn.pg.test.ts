import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { dashboardSignInContract } from "./DashboardSignInContract.ts"

dashboardSignInContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
