import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { installNoncesContract } from "./InstallNoncesContract.ts"

installNoncesContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
